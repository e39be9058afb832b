import { queryOptions, useQuery } from '@tanstack/react-query';
import { userEndpoints as api } from '@shared/contract/endpoints/users.js';
import type { UserDocument } from '@shared/schemas/user.js';
import { callApi, isApiError } from '@web/lib/api-client.js';
import { userKeys } from '../user-keys.js';

/** GET /api/users/:uid */
export function getUser(uid: string, signal?: AbortSignal): Promise<UserDocument> {
  return callApi(api.getUser, { params: { uid }, signal });
}

/** Like getUser, but a missing user is an answer (null), as in a realtime snapshot. */
export async function getUserOrNull(uid: string): Promise<UserDocument | null> {
  try {
    return await getUser(uid);
  } catch (error) {
    if (isApiError(error, 'not_found')) return null;
    throw error;
  }
}

export function getUserQueryOptions(uid: string) {
  return queryOptions({
    queryKey: userKeys.detail(uid),
    queryFn: ({ signal }) => getUser(uid, signal),
  });
}

export function useUser(uid: string | undefined) {
  return useQuery({ ...getUserQueryOptions(uid ?? ''), enabled: uid !== undefined && uid !== '' });
}
