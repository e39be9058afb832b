import { infiniteQueryOptions, useInfiniteQuery } from '@tanstack/react-query';
import type { Comment, Page } from '@shared/schemas/post.js';
import { apiGet } from '@web/lib/api-client.js';
import { commentKeys } from '../comment-keys.js';

/** GET /api/comments/:commentId/replies: one page of a thread's replies, oldest first. */
export function getReplies(
  commentId: string,
  cursor: string | null,
  signal?: AbortSignal,
): Promise<Page<Comment>> {
  const query = cursor ? `?cursor=${encodeURIComponent(cursor)}` : '';
  return apiGet<Page<Comment>>(
    `/api/comments/${encodeURIComponent(commentId)}/replies${query}`,
    signal,
  );
}

export function getRepliesQueryOptions(
  postId: string,
  commentId: string,
  viewerUid: string | null,
) {
  return infiniteQueryOptions({
    queryKey: commentKeys.replies(postId, commentId, viewerUid),
    queryFn: ({ pageParam, signal }) => getReplies(commentId, pageParam, signal),
    initialPageParam: null as string | null,
    getNextPageParam: (last) => last.nextCursor,
  });
}

/** All replies of a thread, from the first; idle until the reader asks for more than the preview. */
export function useReplies(
  postId: string,
  commentId: string,
  viewerUid: string | null,
  enabled: boolean,
) {
  return useInfiniteQuery({ ...getRepliesQueryOptions(postId, commentId, viewerUid), enabled });
}
