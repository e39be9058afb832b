import { infiniteQueryOptions, useInfiniteQuery } from '@tanstack/react-query';
import type { Author, Page } from '@shared/schemas/post.js';
import { apiGet } from '@web/lib/api-client.js';
import { postKeys } from '../post-keys.js';

/** GET /api/posts/:postId/likes: who liked a post, newest first. */
export function getPostLikers(
  postId: string,
  cursor: string | undefined,
  signal?: AbortSignal,
): Promise<Page<Author>> {
  const query = cursor ? `?${new URLSearchParams({ cursor }).toString()}` : '';
  return apiGet<Page<Author>>(`/api/posts/${encodeURIComponent(postId)}/likes${query}`, signal);
}

export function getPostLikersQueryOptions(postId: string) {
  return infiniteQueryOptions({
    queryKey: postKeys.likers(postId),
    queryFn: ({ pageParam, signal }) => getPostLikers(postId, pageParam, signal),
    initialPageParam: undefined as string | undefined,
    getNextPageParam: (last) => last.nextCursor ?? undefined,
  });
}

export function usePostLikers(postId: string) {
  return useInfiniteQuery(getPostLikersQueryOptions(postId));
}
