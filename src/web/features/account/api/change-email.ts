import { useMutation } from '@tanstack/react-query';
import { accountEndpoints as api } from '@shared/contract/endpoints/account.js';
import type { ChangeEmailBody } from '@shared/schemas/account.js';
import { callApi } from '@web/lib/api-client.js';

/** POST /api/account/email: mails a confirmation link to the new address (202, with a message). */
export function changeEmail(body: ChangeEmailBody): Promise<{ message: string }> {
  return callApi(api.requestEmailChange, { body });
}

export function useChangeEmail() {
  return useMutation({ mutationFn: changeEmail });
}
