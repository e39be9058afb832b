import { replaceEqualDeep, type InfiniteData, type QueryClient } from '@tanstack/react-query';
import { idPattern } from '@shared/ids.js';
import type { FeedTab, LikeState, Page, Post, PostView } from '@shared/schemas/post.js';
import { postKeys } from './post-keys.js';

/** A cached list of posts: pages of a keyset-paginated list and the cursor each was asked with. */
export type PostPages = InfiniteData<Page<PostView>>;

/** Orders post ids (decimal strings of growing integers): negative when `a` is older than `b`. */
export function compareIds(a: string, b: string): number {
  if (a.length !== b.length) return a.length - b.length;
  return a < b ? -1 : a > b ? 1 : 0;
}

/** Newest first, as every list of posts is shown. */
function byNewest(a: PostView, b: PostView): number {
  return compareIds(b.id, a.id);
}

/**
 * The cursor of "everything up to and including `id`". The first page of a list is pinned to it, so
 * a refetch (on return to the page, after reconnecting) brings fresh counts and drops deleted posts
 * but never slips new posts in above what the reader is looking at: those wait behind the
 * "Show N new posts" button.
 */
export function cursorAbove(id: string): string | undefined {
  const next = (BigInt(id) + BigInt(1)).toString();
  return idPattern.test(next) ? next : undefined;
}

/** The newest post of a list, or null when it is empty. */
export function newestPostId(data: PostPages | undefined): string | null {
  return data?.pages[0]?.items[0]?.id ?? null;
}

/** The ids of every post in a list. */
export function postIdsOf(data: PostPages | undefined): Set<string> {
  const ids = new Set<string>();
  for (const page of data?.pages ?? []) for (const post of page.items) ids.add(post.id);
  return ids;
}

/** The posts of a list, in order. */
export function postsOf(data: PostPages | undefined): PostView[] {
  return data?.pages.flatMap((page) => page.items) ?? [];
}

/** Pins a freshly loaded first page to its newest post (see cursorAbove); the same object when nothing changes. */
export function pinFirstPage(data: PostPages): PostPages {
  const top = newestPostId(data);
  if (data.pageParams[0] !== undefined || top === null) return data;
  const cursor = cursorAbove(top);
  if (cursor === undefined) return data;
  return { ...data, pageParams: [cursor, ...data.pageParams.slice(1)] };
}

/**
 * Rewrites each post of a list (`null` drops it). Returns the same object when nothing changed, so
 * React and TanStack Query see no change either.
 */
export function mapPosts(data: PostPages, update: (post: PostView) => PostView | null): PostPages {
  const pages = data.pages.map((page) => {
    let pageChanged = false;
    const items: PostView[] = [];
    for (const post of page.items) {
      const next = update(post);
      if (next !== post) pageChanged = true;
      if (next) items.push(next);
    }
    return pageChanged ? { ...page, items } : page;
  });
  return pages.some((page, index) => page !== data.pages[index]) ? { ...data, pages } : data;
}

/**
 * The public document's changes on top of the viewer's copy, keeping whether they like it. The parts
 * that did not change keep their identity (the copy itself when nothing did, as when a post page's
 * socket sends the post it already shows), so the cards and lists showing them do not render again.
 */
export function withPostUpdate(view: PostView, post: Post): PostView {
  return replaceEqualDeep(view, { ...post, liked: view.liked });
}

/**
 * Puts new posts on top of a list, newest first, leaving out any it already holds, and pins the first
 * page above the newest (see cursorAbove).
 */
export function insertNewPosts(data: PostPages, posts: readonly PostView[]): PostPages {
  const known = postIdsOf(data);
  const fresh = posts.filter((post) => !known.has(post.id));
  if (fresh.length === 0) return data;
  const [first, ...rest] = data.pages;
  const items = [...fresh, ...(first?.items ?? [])].sort(byNewest);
  const page: Page<PostView> = { items, nextCursor: first?.nextCursor ?? null };
  const top = items[0]?.id;
  const cursor = top === undefined ? undefined : cursorAbove(top);
  return {
    pages: [page, ...rest],
    pageParams: [cursor, ...data.pageParams.slice(1)],
  };
}

/**
 * Posts waiting behind "Show N new posts": what was waiting plus what came in, each once, newest
 * first, without the ones the list already shows.
 */
export function mergePending(
  pending: readonly PostView[],
  incoming: readonly PostView[],
  shown: ReadonlySet<string>,
): PostView[] {
  const byId = new Map<string, PostView>();
  for (const post of [...pending, ...incoming]) {
    if (!shown.has(post.id)) byId.set(post.id, post);
  }
  return [...byId.values()].sort(byNewest);
}

/** The newest id among the list's top and the waiting posts: "after" of the next check. */
export function newestKnownId(listTop: string | null, pending: readonly PostView[]): string | null {
  let newest = listTop;
  for (const post of pending) {
    if (newest === null || compareIds(post.id, newest) > 0) newest = post.id;
  }
  return newest;
}

/** Any cached copy of a post, from its own query or from a list. */
export function findCachedPost(queryClient: QueryClient, postId: string): PostView | undefined {
  const detail = queryClient.getQueryData<PostView>(postKeys.detail(postId));
  if (detail) return detail;
  for (const [, data] of queryClient.getQueriesData<PostPages>({ queryKey: postKeys.lists() })) {
    for (const page of data?.pages ?? []) {
      const found = page.items.find((post) => post.id === postId);
      if (found) return found;
    }
  }
  return undefined;
}

/** Applies `update` to every cached copy of one post (its own query and every list). */
function updateEverywhere(
  queryClient: QueryClient,
  postId: string,
  update: (post: PostView) => PostView | null,
): void {
  // A list or a post that the update leaves as it was is not set again: its watchers would render anew.
  queryClient.setQueriesData<PostPages>({ queryKey: postKeys.lists() }, (data) => {
    if (!data) return data;
    const next = mapPosts(data, (post) => (post.id === postId ? update(post) : post));
    return next === data ? undefined : next;
  });
  const detail = queryClient.getQueryData<PostView>(postKeys.detail(postId));
  if (detail) {
    const next = update(detail);
    if (next && next !== detail) queryClient.setQueryData(postKeys.detail(postId), next);
  }
}

/**
 * DESIGN.md principle 4 (live by default): a changed post replaces every cached copy, keeping the
 * viewer's own `liked`; its history and likers are read again when next shown.
 */
export function patchCachedPost(queryClient: QueryClient, post: Post): void {
  const before = findCachedPost(queryClient, post.id);
  updateEverywhere(queryClient, post.id, (view) => withPostUpdate(view, post));
  if (before && before.editedAt !== post.editedAt) {
    void queryClient.invalidateQueries({ queryKey: postKeys.versions(post.id) });
  }
  if (before && before.likeCount !== post.likeCount) {
    void queryClient.invalidateQueries({ queryKey: postKeys.likers(post.id) });
  }
}

/** The viewer's like (optimistic, rolled back, or as the server answered) on every cached copy. */
export function setCachedLike(queryClient: QueryClient, postId: string, like: LikeState): void {
  updateEverywhere(queryClient, postId, (post) =>
    post.liked === like.liked && post.likeCount === like.likeCount ? post : { ...post, ...like },
  );
}

/**
 * A deleted post leaves every list. Its own query stays: the post page learns of the deletion from
 * its topic and says so, rather than refetching into a bare not-found.
 */
export function removeCachedPost(queryClient: QueryClient, postId: string): void {
  queryClient.setQueriesData<PostPages>({ queryKey: postKeys.lists() }, (data) =>
    data ? mapPosts(data, (post) => (post.id === postId ? null : post)) : data,
  );
  queryClient.removeQueries({ queryKey: postKeys.versions(postId) });
  queryClient.removeQueries({ queryKey: postKeys.likers(postId) });
}

/** The feeds a new post of the viewer belongs to: Following (their own posts), Everyone, its `tags`. */
export function feedsOfOwnPost(tags: readonly string[]): { tab: FeedTab; tag: string }[] {
  return [
    { tab: 'following', tag: '' },
    { tab: 'everyone', tag: '' },
    ...tags.map((tag) => ({ tab: 'everyone' as const, tag })),
  ];
}

/** The viewer's own new post, with its hashtags, goes on top of every loaded list it belongs to at once. */
export function addOwnPost(
  queryClient: QueryClient,
  post: PostView,
  tags: readonly string[],
): void {
  const keys = [
    ...feedsOfOwnPost(tags).map(({ tab, tag }) => postKeys.feed(tab, tag)),
    postKeys.byUser(post.author.uid),
  ];
  for (const key of keys) {
    queryClient.setQueryData<PostPages>(key, (data) =>
      data ? insertNewPosts(data, [post]) : data,
    );
  }
  queryClient.setQueryData(postKeys.detail(post.id), post);
}
