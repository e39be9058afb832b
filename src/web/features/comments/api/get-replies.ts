import { infiniteQueryOptions, useInfiniteQuery } from '@tanstack/react-query';
import { commentEndpoints } from '@shared/contract/endpoints/comments.js';
import type { Comment, Page } from '@shared/schemas/post.js';
import { callApi } from '@web/lib/api-client.js';
import { commentKeys } from '../comment-keys.js';

/** The first page is read without a cursor, so it starts at the thread's first reply. */
const firstPage: string | null = null;

/** One page of a thread's replies, oldest first. */
export function getReplies(
  commentId: string,
  cursor: string | null,
  signal?: AbortSignal,
): Promise<Page<Comment>> {
  return callApi(commentEndpoints.getCommentReplies, {
    params: { commentId },
    query: { cursor: cursor ?? undefined },
    signal,
  });
}

/** Query options of a thread's replies as `viewerUid` sees them, page by page from the first. */
export function getRepliesQueryOptions(
  postId: string,
  commentId: string,
  viewerUid: string | null,
) {
  return infiniteQueryOptions({
    queryKey: commentKeys.replies(postId, commentId, viewerUid),
    queryFn: ({ pageParam, signal }) => getReplies(commentId, pageParam, signal),
    initialPageParam: firstPage,
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
