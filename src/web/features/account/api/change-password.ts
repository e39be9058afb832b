import { useMutation, useQueryClient } from '@tanstack/react-query';
import { accountEndpoints as api } from '@shared/contract/endpoints/account.js';
import type { ChangePasswordBody } from '@shared/schemas/account.js';
import { callApi } from '@web/lib/api-client.js';
import { accountKeys } from '../account-keys.js';

/** POST /api/account/password; with signOutOtherSessions the other devices are signed out. */
export function changePassword(body: ChangePasswordBody): Promise<{ ok: true }> {
  return callApi(api.changePassword, { body });
}

export function useChangePassword() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: changePassword,
    onSuccess: () => {
      // Other sessions may have ended, and this one is renewed: the list is out of date.
      void queryClient.invalidateQueries({ queryKey: accountKeys.sessions() });
    },
  });
}
