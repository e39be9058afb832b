import { infiniteQueryOptions, useInfiniteQuery } from '@tanstack/react-query';
import { adminInstanceEndpoints as api } from '@shared/contract/endpoints/admin-instance.js';
import type { AuditPage, AuditQuery, PublicLogPage } from '@shared/schemas/audit.js';
import { callApi } from '@web/lib/api-client.js';
import { moderationKeys } from '../moderation-keys.js';

const firstPage: string | undefined = undefined;

export type AuditFilters = Pick<AuditQuery, 'action' | 'actor' | 'target'>;

/** GET /api/admin/audit: newest first, filtered; `cursor` is the last entry's id. */
export function getAuditLog(
  filters: AuditFilters,
  cursor?: string,
  signal?: AbortSignal,
): Promise<AuditPage> {
  return callApi(api.listAuditLog, { query: { ...filters, cursor }, signal });
}

export function useAuditLog(filters: AuditFilters) {
  return useInfiniteQuery(
    infiniteQueryOptions({
      queryKey: moderationKeys.audit(filters),
      queryFn: ({ pageParam, signal }) => getAuditLog(filters, pageParam, signal),
      initialPageParam: firstPage,
      getNextPageParam: (last) => last.nextCursor ?? undefined,
      staleTime: 0,
    }),
  );
}

/** GET /api/moderation-log: a 404 while the administrators do not publish it. */
export function getPublicLog(cursor?: string, signal?: AbortSignal): Promise<PublicLogPage> {
  return callApi(api.listPublicModerationLog, { query: { cursor }, signal });
}

export function usePublicLog(options: { enabled: boolean }) {
  return useInfiniteQuery({
    ...infiniteQueryOptions({
      queryKey: moderationKeys.publicLog(),
      queryFn: ({ pageParam, signal }) => getPublicLog(pageParam, signal),
      initialPageParam: firstPage,
      getNextPageParam: (last) => last.nextCursor ?? undefined,
      staleTime: 30_000,
    }),
    enabled: options.enabled,
  });
}
