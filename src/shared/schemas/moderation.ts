import { z } from 'zod';

/**
 * Every kind of moderator and administrator action the audit log records (issue: moderation and
 * administration §4, "Audit log"; ADR 0021). Each is recorded once, by the service that does it.
 */
export const moderationActions = [
  /** A report (or every open report of one target) closed with nothing done. */
  'report_dismissed',
  /** A post or comment removed by moderators, with a reason its author sees. */
  'content_removed',
  /** A removal undone. */
  'content_restored',
  /** A formal warning sent to a person. */
  'user_warned',
  /** A suspension, for a time or indefinitely. */
  'user_suspended',
  /** A suspension ended early. */
  'suspension_lifted',
  'appeal_accepted',
  'appeal_rejected',
  /** Approval mode: a sign-up let in, or turned away (and its account deleted). */
  'signup_approved',
  'signup_rejected',
  'user_activated',
  'user_deactivated',
  'role_changed',
  /** Every session of the account ended. */
  'sessions_revoked',
  'reset_link_sent',
  /** The account and everything it made deleted by staff. */
  'user_deleted',
  'note_added',
  'rules_changed',
  'settings_changed',
] as const;
export const moderationActionSchema = z.enum(moderationActions);
export type ModerationAction = z.infer<typeof moderationActionSchema>;

/**
 * Actions the public moderation log (/about/moderation) may show when an administrator publishes it; never
 * sign-up decisions, notes, resets, sessions or settings, and never who reported what.
 */
export const publicModerationActions: ReadonlySet<ModerationAction> = new Set<ModerationAction>([
  'content_removed',
  'content_restored',
  'user_warned',
  'user_suspended',
  'suspension_lifted',
  'appeal_accepted',
  'user_deleted',
  'role_changed',
  'rules_changed',
]);

/** What an action was about besides the account: a post, a comment, a report or an appeal. */
export const moderationSubjectKinds = ['post', 'comment', 'report', 'appeal', 'rule'] as const;
export const moderationSubjectKindSchema = z.enum(moderationSubjectKinds);
export type ModerationSubjectKind = z.infer<typeof moderationSubjectKindSchema>;

/** The longest reason a moderator gives, and the longest private note. */
export const moderationTextLimits = { reason: 1_000, note: 2_000, appeal: 1_000 } as const;
