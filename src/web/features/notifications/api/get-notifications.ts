import { infiniteQueryOptions, useInfiniteQuery } from '@tanstack/react-query';
import { notificationEndpoints as api } from '@shared/contract/endpoints/notifications.js';
import type { NotificationGroup, NotificationTab } from '@shared/schemas/notification.js';
import type { Page } from '@shared/schemas/post.js';
import { callApi } from '@web/lib/api-client.js';
import { notificationKeys } from '../notification-keys.js';

/** The first page is asked for without a cursor. */
const firstPage: string | undefined = undefined;

/** GET /api/notifications: one page of a tab, newest first; `cursor` is the last group's id. */
export function getNotifications(
  tab: NotificationTab,
  cursor?: string,
  signal?: AbortSignal,
): Promise<Page<NotificationGroup>> {
  return callApi(api.getNotifications, { query: { tab, cursor }, signal });
}

export function getNotificationsQueryOptions(tab: NotificationTab) {
  return infiniteQueryOptions({
    queryKey: notificationKeys.list(tab),
    queryFn: ({ pageParam, signal }) => getNotifications(tab, pageParam, signal),
    initialPageParam: firstPage,
    getNextPageParam: (last) => last.nextCursor ?? undefined,
    // New notifications come in through the unread state's topic, which refetches the list; a stale
    // copy from an earlier visit is read again when the page opens.
    staleTime: 0,
    refetchOnWindowFocus: false,
  });
}

/** Waits while the session is still being read (`enabled: false`). */
export function useNotifications(tab: NotificationTab, options: { enabled?: boolean } = {}) {
  return useInfiniteQuery({
    ...getNotificationsQueryOptions(tab),
    enabled: options.enabled ?? true,
  });
}
