import { queryOptions, useQuery } from '@tanstack/react-query';
import { userEndpoints as api } from '@shared/contract/endpoints/users.js';
import type { UserDocument } from '@shared/schemas/user.js';
import { callApi } from '@web/lib/api-client.js';
import { userKeys } from '../user-keys.js';

/** GET /api/users/by-username/:username */
export function getUserByUsername(username: string, signal?: AbortSignal): Promise<UserDocument> {
  return callApi(api.getUserByUsername, { params: { username: username.toLowerCase() }, signal });
}

export function getUserByUsernameQueryOptions(username: string) {
  return queryOptions({
    queryKey: userKeys.byUsername(username),
    queryFn: ({ signal }) => getUserByUsername(username, signal),
  });
}

export function useUserByUsername(username: string, options: { enabled?: boolean } = {}) {
  return useQuery({ ...getUserByUsernameQueryOptions(username), enabled: options.enabled ?? true });
}
