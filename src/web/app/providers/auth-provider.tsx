import { useEffect, useMemo, useRef, type ReactNode } from 'react';
import { useQueryClient } from '@tanstack/react-query';
import { useSession } from '@web/features/auth/api/get-session.js';
import { listenForSessionChanges } from '@web/features/auth/auth-broadcast.js';
import { authKeys } from '@web/features/auth/auth-keys.js';
import {
  AuthContext,
  deriveAuthState,
  isAccountChange,
  userDocumentOf,
} from '@web/features/auth/auth-state.js';
import { recheckSession } from '@web/features/auth/session-sync.js';
import { useUserDocument } from '@web/features/users/hooks/use-user-document.js';
import { onUnauthenticated } from '@web/lib/api-client.js';
import { browserDraftStorage, forgetAccountDrafts } from '@web/lib/drafts.js';
import { realtimeClient } from '@web/lib/realtime-client.js';
import { forgetViewer } from './viewer-cache.js';

/**
 * spec §4: isLoading / user / authenticated from the session plus the live users/{uid} document.
 * When the account changes the old subscription is dropped (the hook's uid changes), the socket
 * reopens so the server sees the new session cookie, and what was cached for the previous viewer goes.
 */
export function AuthProvider({ children }: { children: ReactNode }) {
  const queryClient = useQueryClient();
  const session = useSession();
  // A session that could not be read at all counts as signed out rather than loading forever.
  const me = session.data?.user ?? null;
  const uid = me?.uid ?? null;
  // The session carries the account's user document: the first profile snapshot, so the app need not wait
  // for the socket to show the signed-in screens (ADR 0035).
  const ownDocument = useMemo(() => (me ? userDocumentOf(me) : undefined), [me]);
  const profile = useUserDocument(uid, ownDocument);

  const settledUid = useRef<string | null | undefined>(undefined);
  useEffect(() => {
    if (session.isPending) return;
    const previous = settledUid.current;
    settledUid.current = uid;
    if (!isAccountChange(previous, uid)) return;
    realtimeClient.reconnect();
    // Runs after the screens re-rendered for the new viewer, so their old queries are already off screen.
    forgetViewer(queryClient);
    // The previous account's drafts leave the device with it (issue: notifications, search and the
    // everyday things §4); the forms that held them have gone, having written their last words first.
    if (previous) forgetAccountDrafts(browserDraftStorage(), previous);
  }, [queryClient, session.isPending, uid]);

  useEffect(
    () =>
      listenForSessionChanges(() => {
        void queryClient.invalidateQueries({ queryKey: authKeys.session() });
      }),
    [queryClient],
  );

  // A revoked or expired session shows at the tab's next request or realtime message, without a reload.
  useEffect(() => {
    const stopRequests = onUnauthenticated(() => {
      void recheckSession(queryClient);
    });
    const stopSocket = realtimeClient.onSessionEnded(() => {
      void recheckSession(queryClient).then((kept) => {
        // The account is still signed in with a newer session: the socket signs in again with it.
        if (kept) realtimeClient.reconnect();
      });
    });
    return () => {
      stopRequests();
      stopSocket();
    };
  }, [queryClient]);

  const { hasSnapshot, data } = profile;
  const value = useMemo(
    () =>
      deriveAuthState({ sessionPending: session.isPending, me, profile: { hasSnapshot, data } }),
    [session.isPending, me, hasSnapshot, data],
  );

  return <AuthContext value={value}>{children}</AuthContext>;
}
