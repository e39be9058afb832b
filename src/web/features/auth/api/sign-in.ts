import { useMutation, useQueryClient } from '@tanstack/react-query';
import { authEndpoints as api } from '@shared/contract/endpoints/auth.js';
import type { SignInBody } from '@shared/schemas/auth.js';
import type { Me } from '@shared/schemas/user.js';
import { callApi } from '@web/lib/api-client.js';
import { applySessionChange } from '../session-sync.js';

export interface SignInResponse {
  user: Me;
}

/** POST /api/auth/sign-in (identifier is an email or a username). */
export function signIn(body: SignInBody): Promise<SignInResponse> {
  return callApi(api.signIn, { body });
}

export function useSignIn() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: signIn,
    onSuccess: ({ user }) => {
      applySessionChange(queryClient, user);
    },
  });
}
