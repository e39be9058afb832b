import { useMutation } from '@tanstack/react-query';
import { accountEndpoints as api } from '@shared/contract/endpoints/account.js';
import type { Me } from '@shared/schemas/user.js';
import { callApi } from '@web/lib/api-client.js';

/** POST /api/account/email/confirm: the link's one-time token makes the new address the account's. */
export function confirmEmailChange(token: string): Promise<{ user: Me }> {
  return callApi(api.confirmEmailChange, { body: { token } });
}

export function useConfirmEmailChange() {
  return useMutation({ mutationFn: confirmEmailChange });
}
