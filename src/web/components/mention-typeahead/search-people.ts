import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import { searchEndpoints } from '@shared/contract/endpoints/search.js';
import type { Author } from '@shared/schemas/post.js';
import { callApi } from '@web/lib/api-client.js';

/** How many people the typeahead offers at once. */
export const mentionSuggestions = 6;

/** The typeahead's cache: one entry per name typed, kept a while so typing back and forth asks once. */
export const mentionKeys = {
  all: ['mention-people'] as const,
  people: (query: string) => [...mentionKeys.all, query.toLowerCase()] as const,
};

/** GET /api/search/people?q=: people whose username or name starts with `query`. */
export async function searchPeople(query: string, signal?: AbortSignal): Promise<Author[]> {
  const result = await callApi(searchEndpoints.searchPeople, {
    query: { q: query, limit: mentionSuggestions },
    signal,
  });
  // Only someone with a username can be mentioned.
  return result.items.filter((person) => person.username !== null);
}

export function searchPeopleQueryOptions(query: string) {
  return queryOptions({
    queryKey: mentionKeys.people(query),
    // The signal lets TanStack Query abort a search the typing has already moved past.
    queryFn: ({ signal }) => searchPeople(query, signal),
    staleTime: 60_000,
    retry: false,
  });
}

/** People to mention for `query` (empty: none asked), the last answer shown while the next loads. */
export function useMentionPeople(query: string) {
  return useQuery({
    ...searchPeopleQueryOptions(query),
    enabled: query !== '',
    placeholderData: keepPreviousData,
  });
}
