import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import { searchEndpoints as api } from '@shared/contract/endpoints/search.js';
import type { PeopleResult } from '@shared/schemas/search.js';
import { callApi } from '@web/lib/api-client.js';
import { searchKeys } from '../search-keys.js';

/** GET /api/search/people: by username or name, prefix-matched. */
export function searchPeople(q: string, signal?: AbortSignal): Promise<PeopleResult> {
  return callApi(api.searchPeople, { query: { q }, signal });
}

export function getPeopleSearchQueryOptions(q: string) {
  return queryOptions({
    queryKey: searchKeys.people(q),
    // The signal aborts the request once a newer keystroke has replaced it.
    queryFn: ({ signal }) => searchPeople(q, signal),
    staleTime: 60_000,
  });
}

/** People for `q` ('' asks nothing); the previous answer stays on screen while the next is read. */
export function usePeopleSearch(q: string) {
  return useQuery({
    ...getPeopleSearchQueryOptions(q),
    enabled: q !== '',
    placeholderData: keepPreviousData,
  });
}
