import { useMutation, useQueryClient, type InfiniteData } from '@tanstack/react-query';
import { moderationEndpoints as api } from '@shared/contract/endpoints/moderation.js';
import type { Page } from '@shared/schemas/post.js';
import type { ReportGroup, ResolveReportsInput, ResolveResult } from '@shared/schemas/report.js';
import { callApi } from '@web/lib/api-client.js';
import { reportKeys } from '../report-keys.js';

/** POST /api/admin/reports/resolve: one action on a target closes all its open reports. */
export function resolveReports(input: ResolveReportsInput): Promise<ResolveResult> {
  return callApi(api.resolveReports, { body: input });
}

/** Takes a resolved target out of the cached Open list at once; the resolved list is read again. */
export function useResolveReports() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: resolveReports,
    onSuccess: (_, input) => {
      queryClient.setQueryData<InfiniteData<Page<ReportGroup>>>(
        reportKeys.queue('open'),
        (data) =>
          data && {
            ...data,
            pages: data.pages.map((page) => ({
              ...page,
              items: page.items.filter(
                (group) =>
                  !(group.targetKind === input.targetKind && group.targetId === input.targetId),
              ),
            })),
          },
      );
      void queryClient.invalidateQueries({ queryKey: reportKeys.queue('resolved') });
    },
  });
}
