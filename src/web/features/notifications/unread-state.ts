import { queryOptions, type QueryClient } from '@tanstack/react-query';
import { notificationsTopic } from '@shared/realtime-protocol.js';
import type { UnreadState } from '@shared/schemas/notification.js';
import { callApi } from '@web/lib/api-client.js';
import { realtimeClient, type RealtimeClient } from '@web/lib/realtime-client.js';
import { notificationKeys } from './notification-keys.js';

/**
 * GET /api/notifications/unread. The contract is loaded with the first call: the navigation that shows
 * the count is on every page, and its schemas have no place in the first download.
 */
export async function getUnreadState(signal?: AbortSignal): Promise<UnreadState> {
  const { notificationEndpoints } = await import('@shared/contract/endpoints/notifications.js');
  return callApi(notificationEndpoints.getUnreadNotifications, { signal });
}

/** The bell's query: one per account, kept current by its `notifications/{uid}` topic. */
export function getUnreadStateQueryOptions(uid: string) {
  return queryOptions({
    queryKey: notificationKeys.unread(uid),
    queryFn: ({ signal }) => getUnreadState(signal),
  });
}

/**
 * Follows `notifications/{uid}` and writes each document into the query cache, so every screen reading
 * the count (the navigation, the notifications page) changes with it in every open tab. A document is
 * newer than any answer still on its way, so a read in flight is called off first. Returns the
 * unsubscribe. No HTTP fallback of its own: the query has read the count already, and a second read
 * while the socket is away would only repeat it.
 */
export function followUnreadState(
  queryClient: QueryClient,
  uid: string,
  client: RealtimeClient = realtimeClient,
): () => void {
  const topic = notificationsTopic(uid);
  const queryKey = notificationKeys.unread(uid);
  const write = (state: UnreadState) => {
    void queryClient.cancelQueries({ queryKey, exact: true });
    queryClient.setQueryData(queryKey, state);
  };
  const held = client.getSnapshot(topic)?.data;
  if (held) write(held);
  return client.subscribe(topic, () => {
    const state = client.getSnapshot(topic)?.data;
    if (state) write(state);
  });
}

/** Most a badge spells out; beyond it, "99+". */
export const unreadBadgeMax = 99;

/** What the badge shows: "3", or "99+" past 99; null when nothing is unread. */
export function unreadBadgeText(unread: number): string | null {
  if (unread <= 0) return null;
  return unread > unreadBadgeMax ? `${String(unreadBadgeMax)}+` : String(unread);
}
