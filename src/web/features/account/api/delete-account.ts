import { useMutation } from '@tanstack/react-query';
import { accountEndpoints as api } from '@shared/contract/endpoints/account.js';
import type { DeleteAccountBody } from '@shared/schemas/account.js';
import { callApi } from '@web/lib/api-client.js';

/** POST /api/account/delete: removes the account for good and clears the session cookie. */
export function deleteAccount(body: DeleteAccountBody): Promise<{ ok: true }> {
  return callApi(api.deleteAccount, { body });
}

export function useDeleteAccount() {
  return useMutation({ mutationFn: deleteAccount });
}
