import { infiniteQueryOptions, useInfiniteQuery } from '@tanstack/react-query';
import type { FeedTab, Page, PostView } from '@shared/schemas/post.js';
import { postEndpoints } from '@shared/contract/endpoints/posts.js';
import { callApi } from '@web/lib/api-client.js';
import { postKeys } from '../post-keys.js';

/** The first page is asked for without a cursor. */
const firstPage: string | undefined = undefined;

export interface FeedRequest {
  tab: FeedTab;
  /** A hashtag (lowercase, no '#') filtering the Everyone feed; '' for none. */
  tag: string;
  /** Posts older than this id; the newest posts when absent. */
  cursor?: string;
  /** Posts newer than this id instead (the "Show N new posts" button). */
  after?: string;
  limit?: number;
}

/** GET /api/feed: one page of a tab, newest first. */
export function getFeed(
  { tab, tag, cursor, after, limit }: FeedRequest,
  signal?: AbortSignal,
): Promise<Page<PostView>> {
  return callApi(postEndpoints.getFeed, {
    query: { tab, tag: tag || undefined, cursor, after, limit },
    signal,
  });
}

/** Lists are kept fresh by the realtime feed, not by refetching when the window regains focus. */
export const liveListOptions = { refetchOnWindowFocus: false };

export function getFeedQueryOptions(tab: FeedTab, tag: string) {
  return infiniteQueryOptions({
    queryKey: postKeys.feed(tab, tag),
    queryFn: ({ pageParam, signal }) => getFeed({ tab, tag, cursor: pageParam }, signal),
    initialPageParam: firstPage,
    getNextPageParam: (last) => last.nextCursor ?? undefined,
    ...liveListOptions,
  });
}

export function useFeed(tab: FeedTab, tag: string) {
  return useInfiniteQuery(getFeedQueryOptions(tab, tag));
}
