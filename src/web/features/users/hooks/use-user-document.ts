import { useCallback, useSyncExternalStore } from 'react';
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
 */
export function useUserDocument(uid: string | null | undefined): UserDocumentState {
  const queryClient = useQueryClient();
  const topic = uid ? userTopic(uid) : null;

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
        { fetchSnapshot: () => getUserOrNull(uid) },
      );
    },
    [queryClient, topic, uid],
  );

  const snapshot = useSyncExternalStore(subscribe, () =>
    topic ? realtimeClient.getSnapshot(topic) : undefined,
  );

  return {
    hasSnapshot: snapshot !== undefined,
    data: snapshot?.data,
  };
}
