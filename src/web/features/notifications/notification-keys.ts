import type { NotificationTab } from '@shared/schemas/notification.js';

/** Query keys of notifications (STYLE.md §4). */
export const notificationKeys = {
  all: ['notifications'] as const,
  /** The bell's unread state: kept current by the `notifications/{uid}` topic. */
  unread: (uid: string) => [...notificationKeys.all, 'unread', uid] as const,
  lists: () => [...notificationKeys.all, 'list'] as const,
  list: (tab: NotificationTab) => [...notificationKeys.lists(), tab] as const,
  settings: () => [...notificationKeys.all, 'settings'] as const,
  /** What a mail's unsubscribe link turns off (public: the token is the proof). */
  unsubscribe: (token: string) => [...notificationKeys.all, 'unsubscribe', token] as const,
};
