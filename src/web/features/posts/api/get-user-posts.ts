import { infiniteQueryOptions, useInfiniteQuery } from '@tanstack/react-query';
import type { Page, PostView } from '@shared/schemas/post.js';
import { postEndpoints } from '@shared/contract/endpoints/posts.js';
import { callApi } from '@web/lib/api-client.js';
import { postKeys } from '../post-keys.js';

/** The first page is asked for without a cursor. */
const firstPage: string | undefined = undefined;
import { liveListOptions } from './get-feed.js';

/** GET /api/users/:uid/posts: one page of a user's posts, newest first. */
export function getUserPosts(
  uid: string,
  cursor: string | undefined,
  signal?: AbortSignal,
): Promise<Page<PostView>> {
  return callApi(postEndpoints.getUserPosts, { params: { uid }, query: { cursor }, signal });
}

export function getUserPostsQueryOptions(uid: string) {
  return infiniteQueryOptions({
    queryKey: postKeys.byUser(uid),
    queryFn: ({ pageParam, signal }) => getUserPosts(uid, pageParam, signal),
    initialPageParam: firstPage,
    getNextPageParam: (last) => last.nextCursor ?? undefined,
    ...liveListOptions,
  });
}

export function useUserPosts(uid: string) {
  return useInfiniteQuery(getUserPostsQueryOptions(uid));
}
