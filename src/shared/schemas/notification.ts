import { z } from 'zod';
import { authorSchema, idSchema, pageLimitSchema, pageSchema } from './post.js';
import { reportOutcomeSchema, reportTargetKindSchema } from './report.js';

/**
 * Notifications (issue: notifications and search §2). Each row is one event for one recipient; likes and
 * follows of the same thing are shown as one group ("Ana and 12 others liked your post").
 */
export const notificationKinds = [
  /** Someone followed you. */
  'follow',
  /** Someone liked your post. */
  'like',
  /** Someone liked your comment. */
  'comment_like',
  /** Someone commented on your post. */
  'comment',
  /** Someone replied to your comment. */
  'reply',
  /** Someone mentioned you in a post or a comment. */
  'mention',
  /** A report you made was resolved: its outcome, never who acted (ADR 0021). */
  'report_resolved',
  /** The moderators warned you, with a reason. */
  'warning',
  /** The moderators suspended your account, with a reason and an end (or none). */
  'suspension',
  /** Your suspension was lifted early, or your appeal accepted. */
  'suspension_lifted',
  /** Your appeal was decided: accepted or rejected, with a reason. */
  'appeal_decided',
  /** The moderators removed your post or comment, with a reason. */
  'content_removed',
  /** Staff: something new was reported (at most one per target per hour). */
  'new_report',
  /** Staff: a suspended person appealed. */
  'new_appeal',
  /** Staff: a sign-up is waiting for approval. */
  'signup_pending',
] as const;
export const notificationKindSchema = z.enum(notificationKinds, {
  error: 'Not a kind of notification.',
});
export type NotificationKind = z.infer<typeof notificationKindSchema>;

/**
 * What the moderators tell a person about their own account or content: always shown in the app and mailed
 * at once, never switched off (they are not in the settings), and never naming the moderator.
 */
export const mandatoryNotificationKinds = [
  'warning',
  'suspension',
  'suspension_lifted',
  'appeal_decided',
  'content_removed',
] as const satisfies readonly NotificationKind[];
export type MandatoryNotificationKind = (typeof mandatoryNotificationKinds)[number];

export function isMandatoryKind(kind: NotificationKind): kind is MandatoryNotificationKind {
  return (mandatoryNotificationKinds as readonly string[]).includes(kind);
}

/** Kinds the moderators send: their actor is never shown ("The moderators"). */
export const moderationNotificationKinds: readonly NotificationKind[] = [
  ...mandatoryNotificationKinds,
  'report_resolved',
];

/** Every kind a person may switch on or off, in the app and by mail: all but the mandatory ones. */
export const configurableNotificationKinds = notificationKinds.filter(
  (kind): kind is Exclude<NotificationKind, MandatoryNotificationKind> => !isMandatoryKind(kind),
);
export type ConfigurableNotificationKind = (typeof configurableNotificationKinds)[number];

/** Kinds shown as one group per thing (a post, a comment, or you for follows), newest member first. */
export const groupedNotificationKinds: readonly NotificationKind[] = [
  'follow',
  'like',
  'comment_like',
];

/** Kinds shown in the app only, never mailed: reports' outcomes, and staff's queue news. */
export const inAppOnlyKinds: readonly NotificationKind[] = [
  'report_resolved',
  'new_report',
  'new_appeal',
  'signup_pending',
];

/** Kinds whose mail may go out as they happen; the others are never mailed, or mailed in the daily digest. */
export const immediateEmailKinds: readonly NotificationKind[] = ['mention', 'reply', 'comment'];

export const emailModes = ['never', 'immediate', 'digest'] as const;
export const emailModeSchema = z.enum(emailModes, {
  error: 'Choose never, immediate or digest.',
});
export type EmailMode = z.infer<typeof emailModeSchema>;

/** What the notification is about: a short excerpt of the post or comment, enough to recognise it. */
export const notificationSubjectSchema = z.object({
  id: idSchema,
  /** The first words of its text, plain (no markup); empty for a post of images alone. */
  excerpt: z.string(),
});

export const notificationCommentSchema = notificationSubjectSchema.extend({ postId: idSchema });

/**
 * What a moderation notification says (null for other kinds). `subjectId` names the report (for
 * `report_resolved` and `new_report`), the appeal (`new_appeal`, `appeal_decided`) or the audit entry
 * (`warning`, `suspension`, `suspension_lifted`, `content_removed`).
 */
export const notificationModerationSchema = z.object({
  subjectId: z.string().nullable(),
  /** The moderators' reason, told to the person acted on; null for reporters and staff. */
  reason: z.string().nullable(),
  /** `report_resolved`: what was done. */
  outcome: reportOutcomeSchema.nullable(),
  /** `suspension`: when it ends; null when indefinite or for other kinds. */
  until: z.string().nullable(),
  /** `appeal_decided`: whether the appeal was accepted. */
  accepted: z.boolean().nullable(),
  /** What was reported or removed, when it was a post, a comment or a profile. */
  targetKind: reportTargetKindSchema.nullable(),
  /** The first words of it, as it was. */
  excerpt: z.string().nullable(),
});
export type NotificationModeration = z.infer<typeof notificationModerationSchema>;

/** One notification, or one group of them (likes and follows of the same thing). */
export const notificationGroupSchema = z.object({
  /** The newest notification's id: the list's cursor, and what "read" is measured against. */
  id: idSchema,
  kind: notificationKindSchema,
  /** When the newest notification of the group happened. */
  createdAt: z.string(),
  unread: z.boolean(),
  /**
   * The newest few people behind it, newest first (at most `limits.notifications.actorsShown`). Empty for
   * the moderators' own kinds (`moderationNotificationKinds`): they speak as "the moderators".
   */
  actors: z.array(authorSchema),
  /** How many people are behind it in all (0 for the moderators' kinds). */
  actorCount: z.number().int().min(0),
  /** The post: liked, commented on, or where one was mentioned. Null for follows. */
  post: notificationSubjectSchema.nullable(),
  /** The comment: the new comment or reply, the liked comment, or the comment one was mentioned in. */
  comment: notificationCommentSchema.nullable(),
  /** Moderation kinds: what was decided and why. Null for the others. */
  moderation: notificationModerationSchema.nullable(),
});
export type NotificationGroup = z.infer<typeof notificationGroupSchema>;
export const notificationPageSchema = pageSchema(notificationGroupSchema);

export const notificationTabs = ['all', 'mentions'] as const;
export type NotificationTab = (typeof notificationTabs)[number];
export const notificationQuerySchema = z.object({
  tab: z.enum(notificationTabs, { error: 'Choose all or mentions.' }).default('all'),
  cursor: idSchema.optional(),
  limit: pageLimitSchema,
});
export type NotificationQuery = z.infer<typeof notificationQuerySchema>;

/** The bell: unread notifications (counted up to `limits.notifications.unreadCountMax`). */
export const unreadStateSchema = z.object({
  unread: z.number().int().min(0),
  /** The newest notification's id, or null when there is none. */
  newestId: idSchema.nullable(),
});
export type UnreadState = z.infer<typeof unreadStateSchema>;

/** POST /api/notifications/read: everything up to `upTo` (default: everything) is read. */
export const markReadSchema = z.object({ upTo: idSchema.optional() }).strict();

/** One kind's setting: shown in the app or not, and how it is mailed. */
export interface KindSetting {
  inApp: boolean;
  email: EmailMode;
}

/**
 * The mail modes a kind may take, and the message for one it may not: only mentions, replies and comments
 * are mailed as they happen, and the in-app kinds never. Written as each kind's own list rather than a
 * refinement, so the rule is part of the schema's JSON Schema too (the API document, and the web app's
 * check of the answer, ADR 0032).
 */
function kindSettingSchemaOf(kind: ConfigurableNotificationKind) {
  const inAppOnly = inAppOnlyKinds.includes(kind);
  const modes = emailModes.filter((mode) =>
    inAppOnly ? mode === 'never' : mode !== 'immediate' || immediateEmailKinds.includes(kind),
  );
  const refused = inAppOnly
    ? 'This kind is shown in the app only.'
    : 'Only mentions, replies and comments can be mailed as they happen.';
  return z
    .object({
      inApp: z.boolean(),
      email: z.enum(modes as [EmailMode, ...EmailMode[]], {
        error: (issue) =>
          emailModes.some((mode) => mode === issue.input)
            ? refused
            : 'Choose never, immediate or digest.',
      }),
    })
    .strict();
}

/**
 * Per kind: shown in the app or not, and mailed never, as it happens, or in the daily digest. The
 * mandatory kinds are not here: they are always shown and mailed.
 */
export const notificationSettingsSchema = z
  .object(
    Object.fromEntries(
      configurableNotificationKinds.map((kind) => [kind, kindSettingSchemaOf(kind)]),
    ) as Record<ConfigurableNotificationKind, ReturnType<typeof kindSettingSchemaOf>>,
  )
  .strict();
export type NotificationSettings = z.infer<typeof notificationSettingsSchema>;

/** What an account starts with: everything in the app; mentions, replies and comments mailed at once. */
export const defaultNotificationSettings: NotificationSettings = {
  follow: { inApp: true, email: 'never' },
  like: { inApp: true, email: 'never' },
  comment_like: { inApp: true, email: 'never' },
  comment: { inApp: true, email: 'immediate' },
  reply: { inApp: true, email: 'immediate' },
  mention: { inApp: true, email: 'immediate' },
  report_resolved: { inApp: true, email: 'never' },
  new_report: { inApp: true, email: 'never' },
  new_appeal: { inApp: true, email: 'never' },
  signup_pending: { inApp: true, email: 'never' },
};

/** An unsubscribe link's token: random, unguessable, in the URL of the mail's link. */
export const unsubscribeParamsSchema = z.object({
  token: z.string().regex(/^[A-Za-z0-9_-]{32,128}$/, 'Not a valid unsubscribe link.'),
});

/** What an unsubscribe link turns off, and whether it has been used. */
export const unsubscribeStateSchema = z.object({
  /** The kind whose mail it stops, or null for the daily digest. */
  kind: notificationKindSchema.nullable(),
  /** The address the mail went to, masked (a***@example.com). */
  email: z.string(),
  used: z.boolean(),
});
export type UnsubscribeState = z.infer<typeof unsubscribeStateSchema>;
