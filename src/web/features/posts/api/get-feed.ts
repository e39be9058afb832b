import { infiniteQueryOptions, useInfiniteQuery } from '@tanstack/react-query';
import type { FeedTab, Page, PostView } from '@shared/schemas/post.js';
import { apiGet } from '@web/lib/api-client.js';
import { postKeys } from '../post-keys.js';

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

/** The address of one request to the feed. */
export function feedPath({ tab, tag, cursor, after, limit }: FeedRequest): string {
  const params = new URLSearchParams({ tab });
  if (tag) params.set('tag', tag);
  if (cursor) params.set('cursor', cursor);
  if (after) params.set('after', after);
  if (limit !== undefined) params.set('limit', String(limit));
  return `/api/feed?${params.toString()}`;
}

/** GET /api/feed: one page of a tab, newest first. */
export function getFeed(request: FeedRequest, signal?: AbortSignal): Promise<Page<PostView>> {
  return apiGet<Page<PostView>>(feedPath(request), signal);
}

/** Lists are kept fresh by the realtime feed, not by refetching when the window regains focus. */
export const liveListOptions = { refetchOnWindowFocus: false } as const;

export function getFeedQueryOptions(tab: FeedTab, tag: string) {
  return infiniteQueryOptions({
    queryKey: postKeys.feed(tab, tag),
    queryFn: ({ pageParam, signal }) => getFeed({ tab, tag, cursor: pageParam }, signal),
    initialPageParam: undefined as string | undefined,
    getNextPageParam: (last) => last.nextCursor ?? undefined,
    ...liveListOptions,
  });
}

export function useFeed(tab: FeedTab, tag: string) {
  return useInfiniteQuery(getFeedQueryOptions(tab, tag));
}
