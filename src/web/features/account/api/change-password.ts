import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { ChangePasswordBody } from '@shared/schemas/account.js';
import { apiPost } from '@web/lib/api-client.js';
import { accountKeys } from '../account-keys.js';

/** POST /api/account/password; with signOutOtherSessions the other devices are signed out. */
export function changePassword(body: ChangePasswordBody): Promise<{ ok: true }> {
  return apiPost<{ ok: true }>('/api/account/password', body);
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
