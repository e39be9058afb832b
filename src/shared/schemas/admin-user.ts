import { z } from 'zod';
import { moderationActionSchema, moderationTextLimits } from './moderation.js';
import { pageLimitSchema, pageSchema } from './post.js';
import { roleSchema, suspensionSchema } from './user.js';

/**
 * The console's users section (issue: moderation and administration §4, "Users"). Staff only: the one
 * place an account's email is shown to anyone but its owner.
 */

/**
 * Where an account stands, one word each, first match wins: waiting for approval, deactivated (the spec's
 * reversible `active = false`), suspended by moderators, or active.
 */
export const adminUserStates = ['active', 'pending', 'suspended', 'deactivated'] as const;
export const adminUserStateSchema = z.enum(adminUserStates, {
  error: 'Choose active, pending, suspended or deactivated.',
});
export type AdminUserState = z.infer<typeof adminUserStateSchema>;

/** The longest search text. */
export const adminUserSearchMax = 100;

/** How many recent posts, reports, history entries and notes the detail page shows. */
export const adminUserDetailLimits = { posts: 10, reports: 5, history: 20, notes: 20 } as const;

/** GET /api/admin/users: `q` searches names, usernames and emails; `cursor` is the last row's `cursor`. */
export const adminUserQuerySchema = z.object({
  q: z
    .string()
    .trim()
    .max(adminUserSearchMax, `Use at most ${adminUserSearchMax} characters.`)
    .refine((value) => !/\p{Cc}/u.test(value), 'Remove control characters.')
    .optional(),
  role: roleSchema.optional(),
  state: adminUserStateSchema.optional(),
  cursor: z
    .string()
    .max(200)
    .regex(/^[A-Za-z0-9_-]+$/, 'Not a valid cursor.')
    .optional(),
  limit: pageLimitSchema,
});
export type AdminUserQuery = z.infer<typeof adminUserQuerySchema>;

/** One account in the list. */
export const adminUserRowSchema = z.object({
  uid: z.string(),
  username: z.string().nullable(),
  firstName: z.string().nullable(),
  lastName: z.string().nullable(),
  displayName: z.string().nullable(),
  /** 96×96 avatar, or null for the default image. */
  avatarThumb: z.string().nullable(),
  email: z.string(),
  role: roleSchema,
  state: adminUserStateSchema,
  active: z.boolean(),
  awaitingApproval: z.boolean(),
  suspended: z.boolean(),
  createdAt: z.string(),
  lastActiveAt: z.string().nullable(),
  /** Open reports against the account or what it wrote. */
  openReports: z.number().int(),
});
export type AdminUserRow = z.infer<typeof adminUserRowSchema>;

export const adminUserPageSchema = pageSchema(adminUserRowSchema);
export type AdminUserPage = z.infer<typeof adminUserPageSchema>;

/** A recent post as staff see it, removed ones included and marked. */
export const adminUserPostSchema = z.object({
  id: z.string(),
  body: z.string(),
  createdAt: z.string(),
  removedAt: z.string().nullable(),
  removalReason: z.string().nullable(),
});

/** A report by or against the account, compactly. */
export const adminUserReportSchema = z.object({
  id: z.string(),
  targetKind: z.string(),
  targetId: z.string(),
  reason: z.string(),
  comment: z.string().nullable(),
  status: z.string(),
  outcome: z.string().nullable(),
  /** Who reported it (reports against) or whom it was about (reports by), as `username`; null when gone. */
  otherUsername: z.string().nullable(),
  createdAt: z.string(),
});
export type AdminUserReport = z.infer<typeof adminUserReportSchema>;

export const adminUserReportsSchema = z.object({
  open: z.number().int(),
  total: z.number().int(),
  recent: z.array(adminUserReportSchema),
});

/** An audit-log entry that acted on the account. */
export const adminUserHistorySchema = z.object({
  id: z.string(),
  action: moderationActionSchema,
  actorName: z.string(),
  reason: z.string().nullable(),
  createdAt: z.string(),
});
export type AdminUserHistoryEntry = z.infer<typeof adminUserHistorySchema>;

/** A private note moderators keep about the account. */
export const moderationNoteSchema = z.object({
  id: z.string(),
  authorName: z.string(),
  body: z.string(),
  createdAt: z.string(),
});
export type ModerationNote = z.infer<typeof moderationNoteSchema>;

/**
 * What the viewer may do to this account, and why not when they may not (the service decides; the page only
 * shows it): `act` covers every moderator action; `changeRole` and `delete` need an administrator.
 */
export const adminUserPermissionsSchema = z.object({
  act: z.boolean(),
  changeRole: z.boolean(),
  delete: z.boolean(),
  /** Why `act` is false, in a sentence; null when it is true. */
  reason: z.string().nullable(),
  /** Why `changeRole`/`delete` are false while `act` is true. */
  adminReason: z.string().nullable(),
});
export type AdminUserPermissions = z.infer<typeof adminUserPermissionsSchema>;

/** GET /api/admin/users/{uid}. */
export const adminUserDetailSchema = adminUserRowSchema.extend({
  signupAnswer: z.string().nullable(),
  suspension: suspensionSchema.nullable(),
  recentPosts: z.array(adminUserPostSchema),
  reportsAgainst: adminUserReportsSchema,
  reportsBy: adminUserReportsSchema,
  history: z.array(adminUserHistorySchema),
  notes: z.array(moderationNoteSchema),
  permissions: adminUserPermissionsSchema,
});
export type AdminUserDetail = z.infer<typeof adminUserDetailSchema>;

/** A reason told to the person (and kept in the audit log). */
export const moderationReasonSchema = z
  .string({ error: 'Give a reason.' })
  .trim()
  .min(1, 'Give a reason.')
  .max(moderationTextLimits.reason, `Use at most ${moderationTextLimits.reason} characters.`);

/** A reason for the audit log alone, which may be left out. */
export const optionalReasonSchema = z
  .string()
  .trim()
  .max(moderationTextLimits.reason, `Use at most ${moderationTextLimits.reason} characters.`)
  .optional()
  .transform((value) => (value ? value : undefined));

export const rejectSignupSchema = z.object({ reason: moderationReasonSchema });
export const setUserActiveSchema = z.object({
  active: z.boolean({ error: 'Say whether the account is active.' }),
  reason: optionalReasonSchema,
});
export const setUserRoleSchema = z.object({ role: roleSchema, reason: optionalReasonSchema });
export const deleteUserSchema = z.object({ reason: moderationReasonSchema });
export const addModerationNoteSchema = z.object({
  body: z
    .string({ error: 'Write the note.' })
    .trim()
    .min(1, 'Write the note.')
    .max(moderationTextLimits.note, `Use at most ${moderationTextLimits.note} characters.`),
});
