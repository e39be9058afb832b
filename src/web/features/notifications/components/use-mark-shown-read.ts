import { useEffect, useRef } from 'react';
import type { NotificationGroup } from '@shared/schemas/notification.js';
import { useMarkNotificationsRead } from '../api/mark-notifications-read.js';
import { useUnreadState } from '../use-unread-state.js';

/** True when id `a` is newer than `b` (ids are decimal strings of growing integers). */
function isNewer(a: string, b: string): boolean {
  return BigInt(a) > BigInt(b);
}

/**
 * What opening the list should mark read: everything up to its newest group, when anything is unread
 * and that group is newer than what was marked before; otherwise null.
 */
export function readMarkTarget(
  listTop: string | null,
  somethingUnread: boolean,
  lastMarked: string | null,
): string | null {
  if (listTop === null || !somethingUnread) return null;
  if (lastMarked !== null && !isNewer(listTop, lastMarked)) return null;
  return listTop;
}

/** Whether anything is unread: in the list, or by the bell's count (which may count what it does not show). */
export function hasUnread(shown: readonly NotificationGroup[], unreadCount: number): boolean {
  return unreadCount > 0 || shown.some((group) => group.unread);
}

/** True when the bell knows of a notification newer than the list's newest: the list is behind. */
export function listIsBehind(newestId: string | null | undefined, listTop: string | null): boolean {
  if (!newestId) return false;
  return listTop === null || isNewer(newestId, listTop);
}

/**
 * issue: notifications §2 "opening the page marks them read on every tab": once the list is in, what it
 * shows is marked read (every tab's bell hears it live). When a newer notification arrives while the
 * page is open, the list is read again and that is marked read too.
 */
export function useMarkShownRead(
  uid: string,
  shown: readonly NotificationGroup[],
  ready: boolean,
  refetch: () => void,
): void {
  // The bell's state, live from the `notifications/{uid}` topic in every tab.
  const unread = useUnreadState(uid).data;
  const markRead = useMarkNotificationsRead(uid);
  const { mutate } = markRead;
  const lastMarked = useRef<string | null>(null);
  const lastRefetchFor = useRef<string | null>(null);
  const listTop = shown[0]?.id ?? null;
  const somethingUnread = hasUnread(shown, unread?.unread ?? 0);
  const newestId = unread?.newestId;

  useEffect(() => {
    if (!ready) return;
    const target = readMarkTarget(listTop, somethingUnread, lastMarked.current);
    if (target === null) return;
    lastMarked.current = target;
    mutate(target);
  }, [ready, listTop, somethingUnread, mutate]);

  useEffect(() => {
    if (!ready || !newestId || lastRefetchFor.current === newestId) return;
    if (!listIsBehind(newestId, listTop)) return;
    // Once per newest id: on the Mentions tab the newest may be a like that never shows here.
    lastRefetchFor.current = newestId;
    refetch();
  }, [ready, newestId, listTop, refetch]);
}
