import {
  immediateEmailKinds,
  type EmailMode,
  type NotificationKind,
} from '@shared/schemas/notification.js';

/** Each kind as the settings and mails name it: the heading, and "emails about …". */
export const kindLabels: Record<NotificationKind, { title: string; about: string }> = {
  mention: { title: 'Mentions', about: 'mentions' },
  reply: { title: 'Replies to your comments', about: 'replies to your comments' },
  comment: { title: 'Comments on your posts', about: 'comments on your posts' },
  follow: { title: 'New followers', about: 'new followers' },
  like: { title: 'Likes of your posts', about: 'likes of your posts' },
  comment_like: { title: 'Likes of your comments', about: 'likes of your comments' },
};

/** The kinds in the order the settings list them: what people write to you first. */
export const settingsOrder: readonly NotificationKind[] = [
  'mention',
  'reply',
  'comment',
  'follow',
  'like',
  'comment_like',
];

const emailLabels: Record<EmailMode, string> = {
  never: 'Never',
  immediate: 'As it happens',
  digest: 'In a daily digest',
};

/** The mail choices a kind offers: only some kinds may be mailed as they happen. */
export function emailChoices(kind: NotificationKind): { mode: EmailMode; label: string }[] {
  const modes: EmailMode[] = immediateEmailKinds.includes(kind)
    ? ['never', 'immediate', 'digest']
    : ['never', 'digest'];
  return modes.map((mode) => ({ mode, label: emailLabels[mode] }));
}

/** What an unsubscribe link stops, in words: "emails about mentions", or the daily digest. */
export function unsubscribeSubject(kind: NotificationKind | null): string {
  return kind === null ? 'the daily digest email' : `emails about ${kindLabels[kind].about}`;
}
