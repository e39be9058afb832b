import { useEffect, useRef } from 'react';
import { useQueryClient } from '@tanstack/react-query';
import { moderationTopic } from '@shared/realtime-protocol.js';
import { realtimeClient, type RealtimeClient } from '@web/lib/realtime-client.js';
import { getModerationState } from '../api/get-moderation-state.js';
import { reportKeys } from '../report-keys.js';

/** The parts of the realtime client the hook uses (tests pass a stand-in). */
export type LiveClient = Pick<RealtimeClient, 'getSnapshot' | 'subscribe'>;

/**
 * Keeps the reports queue and the appeals live (issue: moderation and administration §4): follows the
 * staff-only `moderation` topic and, whenever its `revision` moves past the one first seen, reads the
 * queue's lists again, so a new report or appeal appears without a reload.
 */
export function useModerationLive(client: LiveClient = realtimeClient): void {
  const queryClient = useQueryClient();
  const seen = useRef<number | null>(null);
  useEffect(() => {
    const onDocument = () => {
      const state = client.getSnapshot(moderationTopic)?.data;
      if (!state) return;
      const previous = seen.current;
      seen.current = state.revision;
      if (previous === null || previous === state.revision) return;
      void queryClient.invalidateQueries({ queryKey: [...reportKeys.all, 'queue'] });
      void queryClient.invalidateQueries({ queryKey: [...reportKeys.all, 'appeals'] });
    };
    onDocument();
    return client.subscribe(moderationTopic, onDocument, { fetchSnapshot: getModerationState });
  }, [client, queryClient]);
}
