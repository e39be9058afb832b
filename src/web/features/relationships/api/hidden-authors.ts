import { queryOptions } from '@tanstack/react-query';
import type { HiddenAuthors } from '@shared/schemas/relationship.js';
import { callApi } from '@web/lib/api-client.js';
import { setHiddenAuthors } from '@web/lib/hidden-authors.js';
import { relationshipKeys } from '../relationship-keys.js';

/**
 * GET /api/me/hidden-authors. Every page asks it, so the contract comes with the first call rather than
 * in the first download. Each answer also goes to the shared set live arrivals are checked against.
 */
export async function getHiddenAuthors(signal?: AbortSignal): Promise<HiddenAuthors> {
  const { relationshipEndpoints } = await import('@shared/contract/endpoints/relationships.js');
  const hidden = await callApi(relationshipEndpoints.getHiddenAuthors, { signal });
  setHiddenAuthors(hidden.authors);
  return hidden;
}

/** Whom the viewer hides: one query per account. */
export function getHiddenAuthorsQueryOptions(viewerUid: string) {
  return queryOptions({
    queryKey: relationshipKeys.hidden(viewerUid),
    queryFn: ({ signal }) => getHiddenAuthors(signal),
  });
}
