import {
  configurableNotificationKinds,
  immediateEmailKinds,
  inAppOnlyKinds,
  type ConfigurableNotificationKind,
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
  report_resolved: { title: 'Outcomes of your reports', about: 'outcomes of your reports' },
  warning: { title: 'Warnings', about: 'warnings from the moderators' },
  suspension: { title: 'Suspensions', about: 'suspensions of your account' },
  suspension_lifted: { title: 'Suspensions lifted', about: 'suspensions being lifted' },
  appeal_decided: { title: 'Appeal decisions', about: 'decisions on your appeals' },
  content_removed: { title: 'Removed content', about: 'posts and comments the moderators removed' },
  new_report: { title: 'New reports (moderators)', about: 'new reports' },
  new_appeal: { title: 'New appeals (moderators)', about: 'new appeals' },
  signup_pending: {
    title: 'Sign-ups awaiting approval (moderators)',
    about: 'sign-ups awaiting approval',
  },
};

/** Kinds only moderators and administrators receive; the settings show them to staff alone. */
export const staffNotificationKinds: readonly NotificationKind[] = [
  'new_report',
  'new_appeal',
  'signup_pending',
];

/**
 * The kinds in the order the settings list them: what people write to you first, then the outcomes of
 * your reports, then (for staff) the console's. The moderators' messages about your own account are
 * not listed: they always arrive.
 */
export const settingsOrder: readonly ConfigurableNotificationKind[] = [
  'mention',
  'reply',
  'comment',
  'follow',
  'like',
  'comment_like',
  'report_resolved',
  'new_report',
  'new_appeal',
  'signup_pending',
];

/** The kinds a person's settings list: the staff kinds only for moderators and administrators. */
export function settingsKinds(staff: boolean): ConfigurableNotificationKind[] {
  return settingsOrder.filter(
    (kind) =>
      configurableNotificationKinds.includes(kind) &&
      (staff || !staffNotificationKinds.includes(kind)),
  );
}

const emailLabels: Record<EmailMode, string> = {
  never: 'Never',
  immediate: 'As it happens',
  digest: 'In a daily digest',
};

/** The mail choices a kind offers: only some kinds may be mailed as they happen. */
export function emailChoices(kind: NotificationKind): { mode: EmailMode; label: string }[] {
  // Reports' outcomes and the console's kinds are shown in the app only.
  const modes: EmailMode[] = inAppOnlyKinds.includes(kind)
    ? ['never']
    : immediateEmailKinds.includes(kind)
      ? ['never', 'immediate', 'digest']
      : ['never', 'digest'];
  return modes.map((mode) => ({ mode, label: emailLabels[mode] }));
}

/** What an unsubscribe link stops, in words: "emails about mentions", or the daily digest. */
export function unsubscribeSubject(kind: NotificationKind | null): string {
  return kind === null ? 'the daily digest email' : `emails about ${kindLabels[kind].about}`;
}
