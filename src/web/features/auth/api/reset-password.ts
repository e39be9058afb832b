import { useMutation, useQueryClient } from '@tanstack/react-query';
import { authEndpoints as api } from '@shared/contract/endpoints/auth.js';
import type { ResetPasswordBody } from '@shared/schemas/auth.js';
import { callApi } from '@web/lib/api-client.js';
import { applySessionChange } from '../session-sync.js';

/** POST /api/auth/reset-password: sets a new password with a one-time token. */
export function resetPassword(body: ResetPasswordBody): Promise<{ ok: true }> {
  return callApi(api.resetPassword, { body });
}

export function useResetPassword() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: resetPassword,
    // A reset may end the account's other sessions, this tab's included: ask the server.
    onSuccess: () => {
      applySessionChange(queryClient);
    },
  });
}
