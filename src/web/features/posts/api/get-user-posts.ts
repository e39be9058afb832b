import { infiniteQueryOptions, useInfiniteQuery } from '@tanstack/react-query';
import type { Page, PostView } from '@shared/schemas/post.js';
import { apiGet } from '@web/lib/api-client.js';
import { postKeys } from '../post-keys.js';
import { liveListOptions } from './get-feed.js';

/** GET /api/users/:uid/posts: one page of a user's posts, newest first. */
export function getUserPosts(
  uid: string,
  cursor: string | undefined,
  signal?: AbortSignal,
): Promise<Page<PostView>> {
  const params = new URLSearchParams();
  if (cursor) params.set('cursor', cursor);
  const query = params.size > 0 ? `?${params.toString()}` : '';
  return apiGet<Page<PostView>>(`/api/users/${encodeURIComponent(uid)}/posts${query}`, signal);
}

export function getUserPostsQueryOptions(uid: string) {
  return infiniteQueryOptions({
    queryKey: postKeys.byUser(uid),
    queryFn: ({ pageParam, signal }) => getUserPosts(uid, pageParam, signal),
    initialPageParam: undefined as string | undefined,
    getNextPageParam: (last) => last.nextCursor ?? undefined,
    ...liveListOptions,
  });
}

export function useUserPosts(uid: string) {
  return useInfiniteQuery(getUserPostsQueryOptions(uid));
}
