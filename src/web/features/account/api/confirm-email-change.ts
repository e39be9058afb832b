import { useMutation } from '@tanstack/react-query';
import type { Me } from '@shared/schemas/user.js';
import { apiPost } from '@web/lib/api-client.js';

/** POST /api/account/email/confirm: the link's one-time token makes the new address the account's. */
export function confirmEmailChange(token: string): Promise<{ user: Me }> {
  return apiPost<{ user: Me }>('/api/account/email/confirm', { token });
}

export function useConfirmEmailChange() {
  return useMutation({ mutationFn: confirmEmailChange });
}
