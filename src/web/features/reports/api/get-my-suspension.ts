import { queryOptions, useQuery } from '@tanstack/react-query';
import { moderationEndpoints as api } from '@shared/contract/endpoints/moderation.js';
import type { MySuspension } from '@shared/schemas/report.js';
import { callApi } from '@web/lib/api-client.js';
import { reportKeys } from '../report-keys.js';

/** GET /api/me/suspension: the viewer's suspension in force (or null) with its appeal. */
export function getMySuspension(signal?: AbortSignal): Promise<MySuspension> {
  return callApi(api.getMySuspension, { signal });
}

/**
 * `suspended` is the account's live flag (the user document): when it changes, the suspension is read
 * again, so a lift or a new suspension shows without a reload.
 */
export function getMySuspensionQueryOptions(uid: string, suspended: boolean) {
  return queryOptions({
    queryKey: [...reportKeys.suspension(uid), suspended] as const,
    queryFn: ({ signal }) => getMySuspension(signal),
    staleTime: 0,
  });
}

export function useMySuspension(uid: string, suspended: boolean) {
  return useQuery(getMySuspensionQueryOptions(uid, suspended));
}
