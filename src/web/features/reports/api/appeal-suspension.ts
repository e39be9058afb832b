import { useMutation, useQueryClient } from '@tanstack/react-query';
import { moderationEndpoints as api } from '@shared/contract/endpoints/moderation.js';
import type { MyAppeal } from '@shared/schemas/report.js';
import { callApi } from '@web/lib/api-client.js';
import { reportKeys } from '../report-keys.js';

/** POST /api/me/appeal: once per suspension (409 after). */
export function appealSuspension(text: string): Promise<MyAppeal> {
  return callApi(api.appealSuspension, { body: { text } });
}

export function useAppealSuspension(uid: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: appealSuspension,
    onSettled: () => {
      void queryClient.invalidateQueries({ queryKey: reportKeys.suspension(uid) });
    },
  });
}
