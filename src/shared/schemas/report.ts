import { z } from 'zod';
import { moderationActionSchema, moderationTextLimits } from './moderation.js';
import { authorSchema, idSchema, pageLimitSchema, pageSchema } from './post.js';
import { roleSchema } from './user.js';

/**
 * Reports, the reports queue, moderators' actions on content and accounts, and appeals (issue: moderation
 * and administration §3–§5, ADR 0021).
 */

/** What can be reported: a post, a comment or a profile (its account). */
export const reportTargetKinds = ['post', 'comment', 'profile'] as const;
export const reportTargetKindSchema = z.enum(reportTargetKinds, {
  error: 'Choose a post, a comment or a profile.',
});
export type ReportTargetKind = z.infer<typeof reportTargetKindSchema>;

/** Why: spam, harassment, illegal content, breaking one of the instance's rules (then which), or other. */
export const reportReasons = ['spam', 'harassment', 'illegal', 'rule', 'other'] as const;
export const reportReasonSchema = z.enum(reportReasons, { error: 'Choose a reason.' });
export type ReportReason = z.infer<typeof reportReasonSchema>;

/** What was done about a report once it was resolved. */
export const reportOutcomes = ['dismissed', 'removed', 'warned', 'suspended'] as const;
export const reportOutcomeSchema = z.enum(reportOutcomes);
export type ReportOutcome = z.infer<typeof reportOutcomeSchema>;

export const reportStatuses = ['open', 'resolved'] as const;
export const reportStatusSchema = z.enum(reportStatuses, { error: 'Choose open or resolved.' });
export type ReportStatus = z.infer<typeof reportStatusSchema>;

/** Reports shown in one queue group; `reportCount` says how many there are. */
export const reportsPerGroup = 20;

/** The longest comment a reporter adds. */
export const reportCommentMax = 1_000;

/** A post or comment id, or a profile's uid. */
const targetIdSchema = z
  .string({ error: 'Missing target.' })
  .min(1, 'Missing target.')
  .max(64, 'Not a valid target.')
  .regex(/^[A-Za-z0-9_-]+$/, 'Not a valid target.');

function plainText(max: number, missing: string, tooLong: string) {
  return (
    z
      .string({ error: missing })
      .trim()
      .min(1, missing)
      .max(max, tooLong)
      // Line breaks are kept; other control characters are not text.
      .refine((value) => !/[^\P{Cc}\n\r\t]/u.test(value), { message: 'Remove control characters.' })
  );
}

/** The reason a moderator gives: mandatory, told to the person acted on. */
export const moderationReasonSchema = plainText(
  moderationTextLimits.reason,
  'Give a reason.',
  `Use at most ${moderationTextLimits.reason} characters.`,
);

/** POST /api/reports. `ruleId` is required when the reason is `rule`, and refused otherwise. */
export const createReportSchema = z
  .object({
    targetKind: reportTargetKindSchema,
    targetId: targetIdSchema,
    reason: reportReasonSchema,
    ruleId: idSchema.optional(),
    comment: z
      .string()
      .trim()
      .max(reportCommentMax, `Use at most ${reportCommentMax} characters.`)
      .optional(),
  })
  .strict()
  .superRefine((input, context) => {
    if (input.reason === 'rule' && input.ruleId === undefined) {
      context.addIssue({ code: 'custom', path: ['ruleId'], message: 'Choose which rule.' });
    }
    if (input.reason !== 'rule' && input.ruleId !== undefined) {
      context.addIssue({
        code: 'custom',
        path: ['ruleId'],
        message: 'A rule goes only with the reason "breaks a rule".',
      });
    }
  });
export type CreateReportInput = z.input<typeof createReportSchema>;
export type CreateReport = z.output<typeof createReportSchema>;

/**
 * The reported content as it was when first reported, kept even if its author later deletes it: the
 * text (a post's or comment's body, a profile's name and bio), its images, and who wrote it.
 */
export const reportSnapshotSchema = z.object({
  kind: reportTargetKindSchema,
  id: z.string(),
  /** For a comment: its post. */
  postId: z.string().nullable(),
  text: z.string(),
  images: z.array(
    z.object({ url: z.string(), key: z.string().nullable(), alt: z.string().nullable() }),
  ),
  author: z.object({
    uid: z.string(),
    username: z.string().nullable(),
    displayName: z.string().nullable(),
  }),
  createdAt: z.string(),
  /** The rule the report named, as it read then (rules may be edited or deleted later). */
  rule: z.object({ id: z.string(), text: z.string() }).nullable(),
});
export type ReportSnapshot = z.infer<typeof reportSnapshotSchema>;

/** A report as its reporter sees it: what they reported, and its outcome once resolved. Never the reporter. */
export const myReportSchema = z.object({
  id: idSchema,
  targetKind: reportTargetKindSchema,
  targetId: z.string(),
  /** The first words of what was reported, from the snapshot. */
  excerpt: z.string(),
  reason: reportReasonSchema,
  ruleId: idSchema.nullable(),
  comment: z.string().nullable(),
  status: reportStatusSchema,
  outcome: reportOutcomeSchema.nullable(),
  createdAt: z.string(),
  resolvedAt: z.string().nullable(),
});
export type MyReport = z.infer<typeof myReportSchema>;
export const myReportPageSchema = pageSchema(myReportSchema);

/** A report in the queue: staff see who made it (null once that account is deleted). */
export const queueReportSchema = z.object({
  id: idSchema,
  reason: reportReasonSchema,
  ruleId: idSchema.nullable(),
  /** The rule's text as it read when the report was made, or null when none was named. */
  ruleText: z.string().nullable(),
  comment: z.string().nullable(),
  createdAt: z.string(),
  status: reportStatusSchema,
  outcome: reportOutcomeSchema.nullable(),
  resolvedAt: z.string().nullable(),
  reporter: authorSchema.nullable(),
});
export type QueueReport = z.infer<typeof queueReportSchema>;

/** What happened to a content's removal: when and why moderators removed it. */
export const removalSchema = z.object({ reason: z.string(), at: z.string() });
export type Removal = z.infer<typeof removalSchema>;

/** One earlier audit entry about an account, for the queue's "moderation history". */
export const historyEntrySchema = z.object({
  id: idSchema,
  action: moderationActionSchema,
  reason: z.string().nullable(),
  actorName: z.string(),
  createdAt: z.string(),
});
export type HistoryEntry = z.infer<typeof historyEntrySchema>;

/** The reported content now: still there, deleted by its author (or with its account), or removed. */
export const contentStates = ['exists', 'deleted', 'removed'] as const;
export const contentStateSchema = z.enum(contentStates);
export type ContentState = z.infer<typeof contentStateSchema>;

/**
 * One target in the queue with its reports. `id` is the paging cursor (the newest report's id). `author` is
 * the account as it is now (null once deleted), with its role and whether it is suspended; `history` is
 * that account's earlier moderation: how many audit entries name it, and the newest few.
 */
export const reportGroupSchema = z.object({
  id: idSchema,
  targetKind: reportTargetKindSchema,
  targetId: z.string(),
  status: reportStatusSchema,
  /** The newest report's time. */
  lastReportAt: z.string(),
  snapshot: reportSnapshotSchema,
  contentState: contentStateSchema,
  removal: removalSchema.nullable(),
  author: authorSchema
    .extend({ role: roleSchema, suspended: z.boolean(), suspendedUntil: z.string().nullable() })
    .nullable(),
  history: z.object({ count: z.number().int().min(0), recent: z.array(historyEntrySchema) }),
  /** Newest first, at most `reportsPerGroup`; `reportCount` counts them all. */
  reports: z.array(queueReportSchema),
  reportCount: z.number().int().min(1),
});
export type ReportGroup = z.infer<typeof reportGroupSchema>;
export const reportGroupPageSchema = pageSchema(reportGroupSchema);

export const reportQueueQuerySchema = z.object({
  status: reportStatusSchema.default('open'),
  cursor: idSchema.optional(),
  limit: pageLimitSchema,
});
export type ReportQueueQuery = z.infer<typeof reportQueueQuerySchema>;

/** How long a suspension lasts. */
export const suspensionDurations = ['1d', '3d', '7d', '30d', 'indefinite'] as const;
export const suspensionDurationSchema = z.enum(suspensionDurations, {
  error: 'Choose 1, 3, 7 or 30 days, or indefinitely.',
});
export type SuspensionDuration = z.infer<typeof suspensionDurationSchema>;

/** Milliseconds per duration; null: until lifted. */
export function suspensionMs(duration: SuspensionDuration): number | null {
  const day = 24 * 60 * 60 * 1000;
  switch (duration) {
    case '1d':
      return day;
    case '3d':
      return 3 * day;
    case '7d':
      return 7 * day;
    case '30d':
      return 30 * day;
    case 'indefinite':
      return null;
  }
}

export const resolveActions = ['dismiss', 'remove', 'warn', 'suspend'] as const;
export const resolveActionSchema = z.enum(resolveActions, {
  error: 'Choose dismiss, remove, warn or suspend.',
});
export type ResolveAction = z.infer<typeof resolveActionSchema>;

/**
 * POST /api/admin/reports/resolve: close every open report of one target with one action. `duration` goes
 * with `suspend` alone; `remove` is for posts and comments.
 */
export const resolveReportsSchema = z
  .object({
    targetKind: reportTargetKindSchema,
    targetId: targetIdSchema,
    action: resolveActionSchema,
    reason: moderationReasonSchema,
    duration: suspensionDurationSchema.optional(),
  })
  .strict()
  .superRefine((input, context) => {
    if (input.action === 'suspend' && input.duration === undefined) {
      context.addIssue({ code: 'custom', path: ['duration'], message: 'Choose how long.' });
    }
    if (input.action !== 'suspend' && input.duration !== undefined) {
      context.addIssue({
        code: 'custom',
        path: ['duration'],
        message: 'A duration goes only with a suspension.',
      });
    }
    if (input.action === 'remove' && input.targetKind === 'profile') {
      context.addIssue({
        code: 'custom',
        path: ['action'],
        message: 'A profile cannot be removed; warn or suspend its account.',
      });
    }
  });
export type ResolveReportsInput = z.input<typeof resolveReportsSchema>;
export type ResolveReports = z.output<typeof resolveReportsSchema>;

export const resolveResultSchema = z.object({
  outcome: reportOutcomeSchema,
  /** How many open reports it closed (0 when the action was taken on a target with none open). */
  closed: z.number().int().min(0),
  /** The audit entry recorded. */
  actionId: idSchema,
});
export type ResolveResult = z.infer<typeof resolveResultSchema>;

/** A moderator's reason alone: removal, restoration, warning, lifting. */
export const reasonBodySchema = z.object({ reason: moderationReasonSchema }).strict();
export type ReasonBody = z.infer<typeof reasonBodySchema>;

/** A post's or comment's moderation state after removal or restoration. */
export const contentModerationSchema = z.object({
  kind: z.enum(['post', 'comment']),
  id: idSchema,
  removal: removalSchema.nullable(),
  actionId: idSchema,
});
export type ContentModeration = z.infer<typeof contentModerationSchema>;

/** PUT /api/admin/users/{uid}/suspension. */
export const suspendUserSchema = z
  .object({ reason: moderationReasonSchema, duration: suspensionDurationSchema })
  .strict();
export type SuspendUserInput = z.input<typeof suspendUserSchema>;

/** An account's suspension as staff see it after acting. */
export const userSuspensionStateSchema = z.object({
  uid: z.string(),
  suspended: z.boolean(),
  since: z.string().nullable(),
  /** Null while suspended indefinitely, or when not suspended. */
  until: z.string().nullable(),
  reason: z.string().nullable(),
  actionId: idSchema,
});
export type UserSuspensionState = z.infer<typeof userSuspensionStateSchema>;

export const warningResultSchema = z.object({ actionId: idSchema });

export const appealStatuses = ['pending', 'accepted', 'rejected'] as const;
export const appealStatusSchema = z.enum(appealStatuses);
export type AppealStatus = z.infer<typeof appealStatusSchema>;

/** The appeal of the viewer's current suspension, as they see it. */
export const myAppealSchema = z.object({
  id: idSchema,
  text: z.string(),
  status: appealStatusSchema,
  createdAt: z.string(),
  decidedAt: z.string().nullable(),
  decisionReason: z.string().nullable(),
});
export type MyAppeal = z.infer<typeof myAppealSchema>;

/**
 * GET /api/me/suspension: the viewer's current suspension (null when none holds) with its appeal, and
 * whether one may still be made (once per suspension).
 */
export const mySuspensionSchema = z.object({
  suspension: z
    .object({
      reason: z.string(),
      since: z.string(),
      until: z.string().nullable(),
      appeal: myAppealSchema.nullable(),
      mayAppeal: z.boolean(),
    })
    .nullable(),
});
export type MySuspension = z.infer<typeof mySuspensionSchema>;

/** POST /api/me/appeal. */
export const appealBodySchema = z
  .object({
    text: plainText(
      moderationTextLimits.appeal,
      'Write your appeal.',
      `Use at most ${moderationTextLimits.appeal} characters.`,
    ),
  })
  .strict();
export type AppealBody = z.input<typeof appealBodySchema>;

/** An appeal in the queue, with the account and the suspension it answers. */
export const appealSchema = z.object({
  id: idSchema,
  status: appealStatusSchema,
  text: z.string(),
  createdAt: z.string(),
  user: authorSchema.nullable(),
  suspension: z.object({
    reason: z.string().nullable(),
    since: z.string().nullable(),
    until: z.string().nullable(),
    /** Whether it still holds. */
    current: z.boolean(),
  }),
  decidedAt: z.string().nullable(),
  decisionReason: z.string().nullable(),
  decidedBy: z.string().nullable(),
});
export type Appeal = z.infer<typeof appealSchema>;
export const appealPageSchema = pageSchema(appealSchema);

export const appealQueueQuerySchema = z.object({
  status: z
    .enum(['pending', 'decided'], { error: 'Choose pending or decided.' })
    .default('pending'),
  cursor: idSchema.optional(),
  limit: pageLimitSchema,
});
export type AppealQueueQuery = z.infer<typeof appealQueueQuerySchema>;

export const appealIdParamsSchema = z.object({ appealId: idSchema });

/** POST /api/admin/appeals/{appealId}/decision. */
export const decideAppealSchema = z
  .object({ accept: z.boolean({ error: 'Accept or reject.' }), reason: moderationReasonSchema })
  .strict();
export type DecideAppealInput = z.input<typeof decideAppealSchema>;

/** The live `moderation` topic (staff only): the console's counters; `revision` moves on every change. */
export const moderationStateSchema = z.object({
  openReports: z.number().int().min(0),
  openAppeals: z.number().int().min(0),
  pendingSignups: z.number().int().min(0),
  revision: z.number().int().min(0),
});
export type ModerationState = z.infer<typeof moderationStateSchema>;
