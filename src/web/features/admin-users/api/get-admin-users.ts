import { infiniteQueryOptions, useInfiniteQuery } from '@tanstack/react-query';
import { adminUserEndpoints as api } from '@shared/contract/endpoints/admin-users.js';
import type { AdminUserPage } from '@shared/schemas/admin-user.js';
import { callApi } from '@web/lib/api-client.js';
import { adminUserKeys, type AdminUserFilters } from '../admin-user-keys.js';

const firstPage: string | undefined = undefined;

/** GET /api/admin/users: one page of accounts, newest first. */
export function getAdminUsers(
  filters: AdminUserFilters,
  cursor?: string,
  signal?: AbortSignal,
): Promise<AdminUserPage> {
  return callApi(api.listAdminUsers, {
    query: {
      q: filters.q || undefined,
      role: filters.role || undefined,
      state: filters.state || undefined,
      cursor,
    },
    signal,
  });
}

export function getAdminUsersQueryOptions(filters: AdminUserFilters) {
  return infiniteQueryOptions({
    queryKey: adminUserKeys.list(filters),
    queryFn: ({ pageParam, signal }) => getAdminUsers(filters, pageParam, signal),
    initialPageParam: firstPage,
    getNextPageParam: (last) => last.nextCursor ?? undefined,
    staleTime: 0,
  });
}

export function useAdminUsers(filters: AdminUserFilters) {
  return useInfiniteQuery(getAdminUsersQueryOptions(filters));
}
