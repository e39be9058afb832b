import { useCallback, useLayoutEffect, useMemo, useRef, useSyncExternalStore } from 'react';
import { useQueryClient } from '@tanstack/react-query';
import type { UserDocument } from '@shared/schemas/user.js';
import { realtimeClient } from '@web/lib/realtime-client.js';
import { getUserOrNull } from '../api/get-user.js';
import { writeUserSnapshotToCache } from '../user-cache.js';
import { userTopic } from '@shared/realtime-protocol.js';

export interface UserDocumentState {
  /** True once a first snapshot (socket or HTTP fallback) has arrived for this uid. */
  hasSnapshot: boolean;
  /** The live document; null when the user does not exist; undefined before the first snapshot. */
  data: UserDocument | null | undefined;
}

const noSubscription = () => () => undefined;

/**
 * Live users/{uid} document (spec §7) over the tab's one realtime socket. Every snapshot is also
 * written into the query cache so every screen showing this user updates at once.
 *
 * `initial` is the document as an answer already in hand carried it (the session's own account): it is
 * the first snapshot until the socket delivers one, so the screen does not wait for the socket (ADR 0035).
 */
export function useUserDocument(
  uid: string | null | undefined,
  initial?: UserDocument,
): UserDocumentState {
  const queryClient = useQueryClient();
  const topic = uid ? userTopic(uid) : null;
  // Given to the topic when it is subscribed, not a reason to subscribe again: a later answer (the session
  // read again) never replaces a snapshot the topic holds.
  const ownInitial = initial?.uid === uid ? initial : undefined;
  const initialRef = useRef(ownInitial);
  // Layout effects run before the effect that subscribes.
  useLayoutEffect(() => {
    initialRef.current = ownInitial;
  }, [ownInitial]);
  // Until the topic holds it (it is handed over on subscribing, after the first render).
  const initialSnapshot = useMemo(
    () => (ownInitial ? { data: ownInitial } : undefined),
    [ownInitial],
  );

  const subscribe = useCallback(
    (onChange: () => void) => {
      if (!uid || !topic) return noSubscription();
      return realtimeClient.subscribe(
        topic,
        () => {
          const snapshot = realtimeClient.getSnapshot(topic);
          if (snapshot) writeUserSnapshotToCache(queryClient, uid, snapshot.data);
          onChange();
        },
        { fetchSnapshot: () => getUserOrNull(uid), initial: initialRef.current },
      );
    },
    [queryClient, topic, uid],
  );

  const snapshot = useSyncExternalStore(subscribe, () =>
    topic ? (realtimeClient.getSnapshot(topic) ?? initialSnapshot) : undefined,
  );

  return {
    hasSnapshot: snapshot !== undefined,
    data: snapshot?.data,
  };
}
