import { queryOptions, useQuery } from '@tanstack/react-query';
import { accountEndpoints as api } from '@shared/contract/endpoints/account.js';
import type { SessionInfo } from '@shared/schemas/account.js';
import { callApi } from '@web/lib/api-client.js';
import { accountKeys } from '../account-keys.js';

export interface SessionList {
  sessions: SessionInfo[];
}

/** GET /api/account/sessions: every device signed in to this account, this one marked `current`. */
export function getSessions(signal?: AbortSignal): Promise<SessionList> {
  return callApi(api.listSessions, { signal });
}

export function getSessionsQueryOptions() {
  return queryOptions({
    queryKey: accountKeys.sessions(),
    queryFn: ({ signal }) => getSessions(signal),
    // A sign-in elsewhere should show up when the user comes back to the tab.
    staleTime: 0,
  });
}

export function useSessions() {
  return useQuery(getSessionsQueryOptions());
}
