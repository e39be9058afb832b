import { infiniteQueryOptions, useInfiniteQuery } from '@tanstack/react-query';
import { moderationEndpoints as api } from '@shared/contract/endpoints/moderation.js';
import type { MyReport } from '@shared/schemas/report.js';
import type { Page } from '@shared/schemas/post.js';
import { callApi } from '@web/lib/api-client.js';
import { reportKeys } from '../report-keys.js';

const firstPage: string | undefined = undefined;

/** GET /api/me/reports: the viewer's own reports, newest first, with their outcomes. */
export function getMyReports(cursor?: string, signal?: AbortSignal): Promise<Page<MyReport>> {
  return callApi(api.listMyReports, { query: { cursor }, signal });
}

export function getMyReportsQueryOptions() {
  return infiniteQueryOptions({
    queryKey: reportKeys.mine(),
    queryFn: ({ pageParam, signal }) => getMyReports(pageParam, signal),
    initialPageParam: firstPage,
    getNextPageParam: (last) => last.nextCursor ?? undefined,
    staleTime: 0,
  });
}

export function useMyReports() {
  return useInfiniteQuery(getMyReportsQueryOptions());
}
