import { useMutation, useQueryClient, type InfiniteData } from '@tanstack/react-query';
import { moderationEndpoints as api } from '@shared/contract/endpoints/moderation.js';
import type { Page } from '@shared/schemas/post.js';
import type { Appeal } from '@shared/schemas/report.js';
import { callApi } from '@web/lib/api-client.js';
import { reportKeys } from '../report-keys.js';

export interface DecideAppealVariables {
  appealId: string;
  accept: boolean;
  reason: string;
}

/** POST /api/admin/appeals/{appealId}/decision: accepting lifts the suspension. */
export function decideAppeal({ appealId, accept, reason }: DecideAppealVariables): Promise<Appeal> {
  return callApi(api.decideAppeal, { params: { appealId }, body: { accept, reason } });
}

export function useDecideAppeal() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: decideAppeal,
    onSuccess: (_, { appealId }) => {
      queryClient.setQueryData<InfiniteData<Page<Appeal>>>(
        reportKeys.appeals('pending'),
        (data) =>
          data && {
            ...data,
            pages: data.pages.map((page) => ({
              ...page,
              items: page.items.filter((appeal) => appeal.id !== appealId),
            })),
          },
      );
      void queryClient.invalidateQueries({ queryKey: reportKeys.appeals('decided') });
    },
  });
}
