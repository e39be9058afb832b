import type { FeedTab } from '@shared/schemas/post.js';

/**
 * Query keys of the feeds (STYLE.md §4). They live here rather than in the posts feature because
 * following someone changes the Following feed, and features do not import each other. They sit
 * under the posts' lists (postKeys.lists()), where every cached copy of a post is found and patched.
 */
export const feedKeys = {
  all: ['posts', 'list', 'feed'] as const,
  /** A feed tab; `tag` ('' for none) filters the Everyone feed. */
  feed: (tab: FeedTab, tag = '') => [...feedKeys.all, tab, tag] as const,
};
