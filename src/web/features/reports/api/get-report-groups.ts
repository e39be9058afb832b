import { infiniteQueryOptions, useInfiniteQuery } from '@tanstack/react-query';
import { moderationEndpoints as api } from '@shared/contract/endpoints/moderation.js';
import type { Page } from '@shared/schemas/post.js';
import type { ReportGroup, ReportStatus } from '@shared/schemas/report.js';
import { callApi } from '@web/lib/api-client.js';
import { reportKeys } from '../report-keys.js';

const firstPage: string | undefined = undefined;

/** GET /api/admin/reports: one page of the queue, grouped by target, newest report first. */
export function getReportGroups(
  status: ReportStatus,
  cursor?: string,
  signal?: AbortSignal,
): Promise<Page<ReportGroup>> {
  return callApi(api.listReportGroups, { query: { status, cursor }, signal });
}

export function getReportGroupsQueryOptions(status: ReportStatus) {
  return infiniteQueryOptions({
    queryKey: reportKeys.queue(status),
    queryFn: ({ pageParam, signal }) => getReportGroups(status, pageParam, signal),
    initialPageParam: firstPage,
    getNextPageParam: (last) => last.nextCursor ?? undefined,
    staleTime: 0,
  });
}

export function useReportGroups(status: ReportStatus) {
  return useInfiniteQuery(getReportGroupsQueryOptions(status));
}
