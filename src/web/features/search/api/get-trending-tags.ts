import { queryOptions, useQuery } from '@tanstack/react-query';
import { searchEndpoints as api } from '@shared/contract/endpoints/search.js';
import type { TrendingTag } from '@shared/schemas/search.js';
import { callApi } from '@web/lib/api-client.js';
import { searchKeys } from '../search-keys.js';

/** GET /api/tags/trending: the day's most used tags, with how many posts and people used each. */
export async function getTrendingTags(signal?: AbortSignal): Promise<TrendingTag[]> {
  const { items } = await callApi(api.getTrendingTags, { signal });
  return items;
}

export function getTrendingTagsQueryOptions() {
  return queryOptions({
    queryKey: searchKeys.trending(),
    queryFn: ({ signal }) => getTrendingTags(signal),
    // A day's counts move slowly.
    staleTime: 5 * 60_000,
  });
}

export function useTrendingTags() {
  return useQuery(getTrendingTagsQueryOptions());
}
