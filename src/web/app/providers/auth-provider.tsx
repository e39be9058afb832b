import { useEffect, useMemo, useRef, type ReactNode } from 'react';
import { useQueryClient } from '@tanstack/react-query';
import { useSession } from '@web/features/auth/api/get-session.js';
import { listenForSessionChanges } from '@web/features/auth/auth-broadcast.js';
import { authKeys } from '@web/features/auth/auth-keys.js';
import { AuthContext, deriveAuthState } from '@web/features/auth/auth-state.js';
import { useUserDocument } from '@web/features/users/hooks/use-user-document.js';
import { realtimeClient } from '@web/lib/realtime-client.js';

/**
 * spec §4: isLoading / user / authenticated from the session plus the live users/{uid} document.
 * When the account changes the old subscription is dropped (the hook's uid changes) and the socket
 * reopens so the server sees the new session cookie.
 */
export function AuthProvider({ children }: { children: ReactNode }) {
  const queryClient = useQueryClient();
  const session = useSession();
  // A session that could not be read at all counts as signed out rather than loading forever.
  const me = session.data?.user ?? null;
  const uid = me?.uid ?? null;
  const profile = useUserDocument(uid);

  const settledUid = useRef<string | null | undefined>(undefined);
  useEffect(() => {
    if (session.isPending) return;
    if (settledUid.current !== undefined && settledUid.current !== uid) realtimeClient.reconnect();
    settledUid.current = uid;
  }, [session.isPending, uid]);

  useEffect(
    () =>
      listenForSessionChanges(() => {
        void queryClient.invalidateQueries({ queryKey: authKeys.session() });
      }),
    [queryClient],
  );

  const { hasSnapshot, data } = profile;
  const value = useMemo(
    () =>
      deriveAuthState({ sessionPending: session.isPending, me, profile: { hasSnapshot, data } }),
    [session.isPending, me, hasSnapshot, data],
  );

  return <AuthContext value={value}>{children}</AuthContext>;
}
