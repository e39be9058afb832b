import { infiniteQueryOptions, useInfiniteQuery } from '@tanstack/react-query';
import { searchEndpoints as api } from '@shared/contract/endpoints/search.js';
import type { Page, PostView } from '@shared/schemas/post.js';
import { callApi } from '@web/lib/api-client.js';
import { searchKeys } from '../search-keys.js';

/** The first page is asked for without a cursor. */
const firstPage: string | undefined = undefined;

/**
 * GET /api/search/posts: ranked by relevance with recency; `cursor` is the opaque position the
 * previous page gave, not a post id.
 */
export function searchPosts(
  q: string,
  cursor?: string,
  signal?: AbortSignal,
): Promise<Page<PostView>> {
  return callApi(api.searchPosts, { query: { q, cursor }, signal });
}

export function getPostSearchQueryOptions(q: string) {
  return infiniteQueryOptions({
    queryKey: searchKeys.posts(q),
    queryFn: ({ pageParam, signal }) => searchPosts(q, pageParam, signal),
    initialPageParam: firstPage,
    getNextPageParam: (last) => last.nextCursor ?? undefined,
    staleTime: 60_000,
    // Live changes patch the cached results; a ranking read again on focus would reshuffle them.
    refetchOnWindowFocus: false,
  });
}

export function usePostSearch(q: string) {
  return useInfiniteQuery({ ...getPostSearchQueryOptions(q), enabled: q !== '' });
}
