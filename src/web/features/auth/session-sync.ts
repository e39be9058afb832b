import type { QueryClient } from '@tanstack/react-query';
import type { SessionResponse } from '@shared/schemas/auth.js';
import type { Me } from '@shared/schemas/user.js';
import { announceSessionChange } from './auth-broadcast.js';
import { authKeys } from './auth-keys.js';

/**
 * After sign-in, sign-up, sign-out or a password reset: show the answer at once, confirm it with
 * the server, and tell the other tabs. `user` undefined means "unknown, ask the server".
 */
export function applySessionChange(queryClient: QueryClient, user?: Me | null): void {
  if (user !== undefined) {
    const session: SessionResponse = { user };
    queryClient.setQueryData(authKeys.session(), session);
  }
  announceSessionChange();
  void queryClient.invalidateQueries({ queryKey: authKeys.session() });
}

/** Re-reads the session's Me after a change the user document does not carry (email, next rename). */
export function refreshSession(queryClient: QueryClient): void {
  void queryClient.invalidateQueries({ queryKey: authKeys.session() });
}
