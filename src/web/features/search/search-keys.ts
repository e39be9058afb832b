/** Query keys of search (STYLE.md §4). */
export const searchKeys = {
  all: ['search'] as const,
  people: (q: string) => [...searchKeys.all, 'people', q] as const,
  trending: () => [...searchKeys.all, 'trending'] as const,
  /**
   * Post results sit under the posts' lists (postKeys.lists()), where an edit, a like count or a
   * deletion reaching one post patches every cached copy of it, these results included.
   */
  posts: (q: string) => ['posts', 'list', 'search', q] as const,
};
