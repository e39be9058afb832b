import { useMutation } from '@tanstack/react-query';
import type { RequestPasswordResetBody } from '@shared/schemas/auth.js';
import { apiPost } from '@web/lib/api-client.js';

/** POST /api/auth/request-password-reset: the same answer whether or not the address exists. */
export function requestPasswordReset(body: RequestPasswordResetBody): Promise<{ message: string }> {
  return apiPost<{ message: string }>('/api/auth/request-password-reset', body);
}

export function useRequestPasswordReset() {
  return useMutation({ mutationFn: requestPasswordReset });
}
