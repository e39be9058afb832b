import { infiniteQueryOptions, useInfiniteQuery } from '@tanstack/react-query';
import type { Page, Thread } from '@shared/schemas/post.js';
import { apiGet } from '@web/lib/api-client.js';
import { commentKeys } from '../comment-keys.js';

/** GET /api/posts/:postId/comments: top-level comments oldest first, each with its first replies. */
export function getComments(
  postId: string,
  cursor: string | null,
  signal?: AbortSignal,
): Promise<Page<Thread>> {
  const query = cursor ? `?cursor=${encodeURIComponent(cursor)}` : '';
  return apiGet<Page<Thread>>(`/api/posts/${encodeURIComponent(postId)}/comments${query}`, signal);
}

export function getCommentsQueryOptions(postId: string, viewerUid: string | null) {
  return infiniteQueryOptions({
    queryKey: commentKeys.threads(postId, viewerUid),
    queryFn: ({ pageParam, signal }) => getComments(postId, pageParam, signal),
    initialPageParam: null as string | null,
    getNextPageParam: (last) => last.nextCursor,
  });
}

/** The post's threads as `viewerUid` sees them; `enabled` waits for the session to be known. */
export function useComments(postId: string, viewerUid: string | null, enabled = true) {
  return useInfiniteQuery({ ...getCommentsQueryOptions(postId, viewerUid), enabled });
}
