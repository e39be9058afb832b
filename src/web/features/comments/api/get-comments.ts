import { infiniteQueryOptions, useInfiniteQuery } from '@tanstack/react-query';
import { commentEndpoints } from '@shared/contract/endpoints/comments.js';
import type { Page, Thread } from '@shared/schemas/post.js';
import { callApi } from '@web/lib/api-client.js';
import { commentKeys } from '../comment-keys.js';

/** The first page is read without a cursor. */
const firstPage: string | null = null;

/** One page of a post's top-level comments, oldest first, each with its first replies. */
export function getComments(
  postId: string,
  cursor: string | null,
  signal?: AbortSignal,
): Promise<Page<Thread>> {
  return callApi(commentEndpoints.getComments, {
    params: { postId },
    query: { cursor: cursor ?? undefined },
    signal,
  });
}

/** Query options of the post's threads as `viewerUid` sees them, page by page from the first. */
export function getCommentsQueryOptions(postId: string, viewerUid: string | null) {
  return infiniteQueryOptions({
    queryKey: commentKeys.threads(postId, viewerUid),
    queryFn: ({ pageParam, signal }) => getComments(postId, pageParam, signal),
    initialPageParam: firstPage,
    getNextPageParam: (last) => last.nextCursor,
  });
}

/** The post's threads as `viewerUid` sees them; `enabled` waits for the session to be known. */
export function useComments(postId: string, viewerUid: string | null, enabled = true) {
  return useInfiniteQuery({ ...getCommentsQueryOptions(postId, viewerUid), enabled });
}
