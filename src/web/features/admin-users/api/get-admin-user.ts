import { queryOptions, useQuery } from '@tanstack/react-query';
import { adminUserEndpoints as api } from '@shared/contract/endpoints/admin-users.js';
import type { AdminUserDetail } from '@shared/schemas/admin-user.js';
import { callApi } from '@web/lib/api-client.js';
import { adminUserKeys } from '../admin-user-keys.js';

/** GET /api/admin/users/{uid}: the account as staff see it. */
export function getAdminUser(uid: string, signal?: AbortSignal): Promise<AdminUserDetail> {
  return callApi(api.getAdminUser, { params: { uid }, signal });
}

export function getAdminUserQueryOptions(uid: string) {
  return queryOptions({
    queryKey: adminUserKeys.detail(uid),
    queryFn: ({ signal }) => getAdminUser(uid, signal),
    staleTime: 0,
  });
}

export function useAdminUser(uid: string) {
  return useQuery(getAdminUserQueryOptions(uid));
}
