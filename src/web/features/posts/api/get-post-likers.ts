import { infiniteQueryOptions, useInfiniteQuery } from '@tanstack/react-query';
import type { Author, Page } from '@shared/schemas/post.js';
import { postEndpoints } from '@shared/contract/endpoints/posts.js';
import { callApi } from '@web/lib/api-client.js';
import { postKeys } from '../post-keys.js';

/** The first page is asked for without a cursor. */
const firstPage: string | undefined = undefined;

/** GET /api/posts/:postId/likes: who liked a post, newest first. */
export function getPostLikers(
  postId: string,
  cursor: string | undefined,
  signal?: AbortSignal,
): Promise<Page<Author>> {
  return callApi(postEndpoints.getPostLikers, { params: { postId }, query: { cursor }, signal });
}

export function getPostLikersQueryOptions(postId: string) {
  return infiniteQueryOptions({
    queryKey: postKeys.likers(postId),
    queryFn: ({ pageParam, signal }) => getPostLikers(postId, pageParam, signal),
    initialPageParam: firstPage,
    getNextPageParam: (last) => last.nextCursor ?? undefined,
  });
}

export function usePostLikers(postId: string) {
  return useInfiniteQuery(getPostLikersQueryOptions(postId));
}
