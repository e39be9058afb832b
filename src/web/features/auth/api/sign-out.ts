import { useMutation, useQueryClient } from '@tanstack/react-query';
import { apiPost } from '@web/lib/api-client.js';
import { applySessionChange } from '../session-sync.js';

/** POST /api/auth/sign-out */
export function signOut(): Promise<{ ok: true }> {
  return apiPost<{ ok: true }>('/api/auth/sign-out');
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
