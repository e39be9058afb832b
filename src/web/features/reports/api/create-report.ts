import { useMutation, useQueryClient } from '@tanstack/react-query';
import { moderationEndpoints as api } from '@shared/contract/endpoints/moderation.js';
import type { CreateReportInput, MyReport } from '@shared/schemas/report.js';
import { callApi } from '@web/lib/api-client.js';
import { reportKeys } from '../report-keys.js';

/** POST /api/reports: a 409 when the viewer already has an open report of the same thing. */
export function createReport(input: CreateReportInput): Promise<MyReport> {
  return callApi(api.createReport, { body: input });
}

export function useCreateReport() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: createReport,
    onSuccess: () => {
      void queryClient.invalidateQueries({ queryKey: reportKeys.mine() });
    },
  });
}
