import { useMutation, useQueryClient } from '@tanstack/react-query';
import { authEndpoints as api } from '@shared/contract/endpoints/auth.js';
import { callApi } from '@web/lib/api-client.js';
import { applySessionChange } from '../session-sync.js';

/** POST /api/auth/sign-out */
export function signOut(): Promise<{ ok: true }> {
  return callApi(api.signOut);
}

export function useSignOut() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: signOut,
    onSuccess: () => {
      applySessionChange(queryClient, null);
    },
  });
}
