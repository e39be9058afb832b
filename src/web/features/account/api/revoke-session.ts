import { useMutation, useQueryClient } from '@tanstack/react-query';
import { accountEndpoints as api } from '@shared/contract/endpoints/account.js';
import { callApi, isApiError } from '@web/lib/api-client.js';
import { accountKeys } from '../account-keys.js';
import type { SessionList } from './get-sessions.js';

/** DELETE /api/account/sessions/:id: signs that device out (404 when it had already ended). */
export function revokeSession(id: string): Promise<{ ok: true }> {
  return callApi(api.revokeSession, { params: { id } });
}

function dropSession(list: SessionList | undefined, id: string): SessionList | undefined {
  return list && { sessions: list.sessions.filter((session) => session.id !== id) };
}

export function useRevokeSession() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: revokeSession,
    onSettled: (_data, error, id) => {
      // A session that had already ended is gone either way: the row goes too.
      if (!error || isApiError(error, 'not_found')) {
        queryClient.setQueryData<SessionList>(accountKeys.sessions(), (list) =>
          dropSession(list, id),
        );
      }
      void queryClient.invalidateQueries({ queryKey: accountKeys.sessions() });
    },
  });
}
