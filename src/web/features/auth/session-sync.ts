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

/** How long a session re-read waits for this tab's own writes to answer. */
export const settleWaitMs = 10_000;

/**
 * Resolves once none of this tab's writes is under way, or after `settleWaitMs`. The server tells the
 * sockets that a session ended as it ends it, so that news can arrive before the answer of the very
 * request that ended it: a password change that signs out the other devices replaces this tab's session
 * too, and the browser holds the new cookie only once that answer is in. Read before it, the session
 * would be the old one, and the tab would wrongly show itself signed out.
 */
function mutationsSettled(queryClient: QueryClient): Promise<void> {
  if (queryClient.isMutating() === 0) return Promise.resolve();
  return new Promise((resolve) => {
    const done = () => {
      clearTimeout(timer);
      unsubscribe();
      resolve();
    };
    const timer = setTimeout(done, settleWaitMs);
    const unsubscribe = queryClient.getMutationCache().subscribe(() => {
      if (queryClient.isMutating() === 0) done();
    });
  });
}

function signedInUid(queryClient: QueryClient): string | null {
  return queryClient.getQueryData<SessionResponse>(authKeys.session())?.user?.uid ?? null;
}

/**
 * The server answered `unauthenticated` to a request of this tab, or told its socket the session ended
 * (revoked, expired, account deleted): ask who is signed in now, so the tab shows it without a reload, and
 * tell the other tabs, which share the cookie. A tab already signed out expects such answers and asks
 * nothing. Resolves true when the same account is still signed in: the tab holds a newer session of it (a
 * password change that signed out the other sessions replaces this one too).
 */
export async function recheckSession(queryClient: QueryClient): Promise<boolean> {
  const before = signedInUid(queryClient);
  if (before === null) return false;
  await mutationsSettled(queryClient);
  await queryClient.invalidateQueries({ queryKey: authKeys.session() });
  const after = signedInUid(queryClient);
  if (after !== before) announceSessionChange();
  return after === before;
}
