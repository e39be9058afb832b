import { useMutation } from '@tanstack/react-query';
import type { ChangeEmailBody } from '@shared/schemas/account.js';
import { apiPost } from '@web/lib/api-client.js';

/** POST /api/account/email: mails a confirmation link to the new address (202, with a message). */
export function changeEmail(body: ChangeEmailBody): Promise<{ message: string }> {
  return apiPost<{ message: string }>('/api/account/email', body);
}

export function useChangeEmail() {
  return useMutation({ mutationFn: changeEmail });
}
