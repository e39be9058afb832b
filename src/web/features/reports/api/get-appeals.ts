import { infiniteQueryOptions, useInfiniteQuery } from '@tanstack/react-query';
import { moderationEndpoints as api } from '@shared/contract/endpoints/moderation.js';
import type { Page } from '@shared/schemas/post.js';
import type { Appeal } from '@shared/schemas/report.js';
import { callApi } from '@web/lib/api-client.js';
import { reportKeys } from '../report-keys.js';

const firstPage: string | undefined = undefined;

export type AppealTab = 'pending' | 'decided';

/** GET /api/admin/appeals: pending or decided appeals, newest first. */
export function getAppeals(
  status: AppealTab,
  cursor?: string,
  signal?: AbortSignal,
): Promise<Page<Appeal>> {
  return callApi(api.listAppeals, { query: { status, cursor }, signal });
}

export function getAppealsQueryOptions(status: AppealTab) {
  return infiniteQueryOptions({
    queryKey: reportKeys.appeals(status),
    queryFn: ({ pageParam, signal }) => getAppeals(status, pageParam, signal),
    initialPageParam: firstPage,
    getNextPageParam: (last) => last.nextCursor ?? undefined,
    staleTime: 0,
  });
}

export function useAppeals(status: AppealTab) {
  return useInfiniteQuery(getAppealsQueryOptions(status));
}
