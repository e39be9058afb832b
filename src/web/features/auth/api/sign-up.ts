import { useMutation, useQueryClient } from '@tanstack/react-query';
import { authEndpoints as api } from '@shared/contract/endpoints/auth.js';
import type { SignUpBody } from '@shared/schemas/auth.js';
import type { Me } from '@shared/schemas/user.js';
import { callApi } from '@web/lib/api-client.js';
import { applySessionChange } from '../session-sync.js';

export interface SignUpResponse {
  user: Me;
}

/** POST /api/auth/sign-up: creates the account and signs it in. */
export function signUp(body: SignUpBody): Promise<SignUpResponse> {
  return callApi(api.signUp, { body });
}

export function useSignUp() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: signUp,
    onSuccess: ({ user }) => {
      applySessionChange(queryClient, user);
    },
  });
}
