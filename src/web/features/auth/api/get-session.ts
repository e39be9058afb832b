import { queryOptions, useQuery } from '@tanstack/react-query';
import { authEndpoints as api } from '@shared/contract/endpoints/auth.js';
import type { SessionResponse } from '@shared/schemas/auth.js';
import { callApi } from '@web/lib/api-client.js';
import { authKeys } from '../auth-keys.js';

/** GET /api/auth/session: who is signed in (user null when nobody is). */
export function getSession(signal?: AbortSignal): Promise<SessionResponse> {
  return callApi(api.getSession, { signal });
}

export function getSessionQueryOptions() {
  return queryOptions({
    queryKey: authKeys.session(),
    queryFn: ({ signal }) => getSession(signal),
    staleTime: 60_000,
  });
}

export function useSession() {
  return useQuery(getSessionQueryOptions());
}
