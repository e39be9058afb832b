import { useCallback, useSyncExternalStore } from 'react';
import { moderationTopic } from '@shared/realtime-protocol.js';
import type { ModerationState } from '@shared/schemas/report.js';
import { realtimeClient, type RealtimeClient } from '@web/lib/realtime-client.js';

const nothing = () => undefined;

/**
 * The console's live counts (open reports, appeals, sign-ups waiting) from the staff-only `moderation`
 * topic; null until the first document, or when `enabled` is false (not staff: nothing is asked). The
 * console passes `fetchSnapshot` to read the counts over HTTP while the socket is away; the main
 * navigation does not, so the console's contract stays out of the first download.
 */
export function useModerationCounts(
  enabled: boolean,
  fetchSnapshot?: () => Promise<ModerationState>,
  client: RealtimeClient = realtimeClient,
): ModerationState | null {
  const subscribe = useCallback(
    (notify: () => void) =>
      enabled
        ? client.subscribe(moderationTopic, notify, fetchSnapshot ? { fetchSnapshot } : {})
        : nothing,
    [client, enabled, fetchSnapshot],
  );
  const snapshot = useCallback(
    () => (enabled ? (client.getSnapshot(moderationTopic)?.data ?? null) : null),
    [client, enabled],
  );
  return useSyncExternalStore(subscribe, snapshot, () => null);
}
