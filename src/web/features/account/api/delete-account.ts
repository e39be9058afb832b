import { useMutation } from '@tanstack/react-query';
import type { DeleteAccountBody } from '@shared/schemas/account.js';
import { apiPost } from '@web/lib/api-client.js';

/** POST /api/account/delete: removes the account for good and clears the session cookie. */
export function deleteAccount(body: DeleteAccountBody): Promise<{ ok: true }> {
  return apiPost<{ ok: true }>('/api/account/delete', body);
}

export function useDeleteAccount() {
  return useMutation({ mutationFn: deleteAccount });
}
