import { useMutation } from '@tanstack/react-query';
import { authEndpoints as api } from '@shared/contract/endpoints/auth.js';
import type { RequestPasswordResetBody } from '@shared/schemas/auth.js';
import { callApi } from '@web/lib/api-client.js';

/** POST /api/auth/request-password-reset: the same answer whether or not the address exists. */
export function requestPasswordReset(body: RequestPasswordResetBody): Promise<{ message: string }> {
  return callApi(api.requestPasswordReset, { body });
}

export function useRequestPasswordReset() {
  return useMutation({ mutationFn: requestPasswordReset });
}
