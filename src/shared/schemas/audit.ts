import { z } from 'zod';
import { moderationActionSchema, moderationSubjectKindSchema } from './moderation.js';
import { idSchema, pageLimitSchema, pageSchema } from './post.js';

/**
 * The audit log as staff read it, and the public moderation log (issue: moderation and administration §4,
 * "Audit log"; ADR 0021, ADR 0023). Names are as they were recorded, so an entry still reads after an
 * account is renamed or deleted.
 */

/** Who acted: a moderator or administrator (uid null once the account is gone), or the operator. */
export const auditActorSchema = z.object({
  uid: z.string().nullable(),
  /** `@username`, or "operator". */
  name: z.string(),
});

/** The account acted on. */
export const auditTargetSchema = z.object({
  /** Null once the account is gone. */
  uid: z.string().nullable(),
  username: z.string().nullable(),
});

export const auditSubjectSchema = z.object({
  kind: moderationSubjectKindSchema,
  id: z.string(),
  /** The first words of the post or comment as it was; null when there is none. */
  excerpt: z.string().nullable(),
});

/** One entry of the audit log, for moderators and administrators. */
export const auditEntrySchema = z.object({
  id: idSchema,
  action: moderationActionSchema,
  actor: auditActorSchema,
  target: auditTargetSchema.nullable(),
  subject: auditSubjectSchema.nullable(),
  /** Sent to the person; shown in the public log when it is published. */
  reason: z.string().nullable(),
  /** Moderators only; never published. */
  note: z.string().nullable(),
  /** What else the action recorded: a role's before and after, a suspension's length, what changed. */
  details: z.record(z.string(), z.unknown()).nullable(),
  /** Whether the public log may show it (when published). */
  public: z.boolean(),
  createdAt: z.string(),
});
export type AuditEntry = z.infer<typeof auditEntrySchema>;
export const auditPageSchema = pageSchema(auditEntrySchema);
export type AuditPage = z.infer<typeof auditPageSchema>;

/** A name as recorded, with or without its `@`. */
const recordedNameSchema = z
  .string({ error: 'Write a username.' })
  .trim()
  .toLowerCase()
  .transform((value) => value.replace(/^@/, ''))
  .pipe(
    z
      .string()
      .min(1, 'Write a username.')
      .max(64, 'Use at most 64 characters.')
      .regex(/^[a-z0-9_]+$/, 'Use only letters, digits and underscores.'),
  );

/** GET /api/admin/audit: newest first; each filter narrows, and an empty one is no filter. */
export const auditQuerySchema = z.object({
  action: z.preprocess(
    (value) => (value === '' ? undefined : value),
    z.enum(moderationActionSchema.options, { error: 'Not a kind of action.' }).optional(),
  ),
  /** The moderator's username as recorded, or "operator" for the command line. */
  actor: z.preprocess((value) => (value === '' ? undefined : value), recordedNameSchema.optional()),
  /** The username of the account acted on, as recorded. */
  target: z.preprocess(
    (value) => (value === '' ? undefined : value),
    recordedNameSchema.optional(),
  ),
  cursor: idSchema.optional(),
  limit: pageLimitSchema,
});
export type AuditQuery = z.infer<typeof auditQuerySchema>;

/**
 * One entry of the public moderation log: what was done, to whose account, about what kind of thing, why and
 * when. Never who did it, who reported it, a private note, the recorded details, or the removed words
 * (ADR 0023).
 */
export const publicLogEntrySchema = z.object({
  id: idSchema,
  action: moderationActionSchema,
  /** The username as recorded; null for actions on no account (the rules). */
  targetUsername: z.string().nullable(),
  /** A post or comment, a rule, an appeal; null when the action was about the account alone. */
  subjectKind: moderationSubjectKindSchema.nullable(),
  reason: z.string().nullable(),
  createdAt: z.string(),
});
export type PublicLogEntry = z.infer<typeof publicLogEntrySchema>;
export const publicLogPageSchema = pageSchema(publicLogEntrySchema);
export type PublicLogPage = z.infer<typeof publicLogPageSchema>;

export const publicLogQuerySchema = z.object({
  cursor: idSchema.optional(),
  limit: pageLimitSchema,
});
export type PublicLogQuery = z.infer<typeof publicLogQuerySchema>;
