import type {
  NotificationGroup,
  NotificationSettings,
  UnreadState,
  UnsubscribeState,
} from '../schemas/notification.js';
import { defaultNotificationSettings } from '../schemas/notification.js';
import type { Page } from '../schemas/post.js';
import { makeAuthor } from './post-fixtures.js';

/** A complete, valid notification (a like of post 9 by Ada) for unit tests; override what a test is about. */
export function makeNotificationGroup(
  overrides: Partial<NotificationGroup> = {},
): NotificationGroup {
  return {
    id: '1',
    kind: 'like',
    createdAt: '2025-01-02T03:04:05.000Z',
    unread: false,
    actors: [makeAuthor()],
    actorCount: 1,
    post: { id: '9', excerpt: 'Hello' },
    comment: null,
    moderation: null,
    ...overrides,
  };
}

/** A page of notifications with the given ids (newest first) and cursor. */
export function makeNotificationPage(
  ids: string[],
  nextCursor: string | null = null,
): Page<NotificationGroup> {
  return { items: ids.map((id) => makeNotificationGroup({ id })), nextCursor };
}

/** Settings as a new account starts with them, changed where a test says. */
export function makeNotificationSettings(
  overrides: Partial<NotificationSettings> = {},
): NotificationSettings {
  return { ...defaultNotificationSettings, ...overrides };
}

/** The bell's state. */
export function makeUnreadState(overrides: Partial<UnreadState> = {}): UnreadState {
  return { unread: 0, newestId: null, ...overrides };
}

/** An unused unsubscribe link for mentions. */
export function makeUnsubscribeState(overrides: Partial<UnsubscribeState> = {}): UnsubscribeState {
  return { kind: 'mention', email: 'a***@example.com', used: false, ...overrides };
}
