import type { ModerationAction, ModerationSubjectKind } from '@shared/schemas/moderation.js';

/**
 * Readable names of every kind of moderator and administrator action, for filters, headings and badges.
 * The one place the web app names them (the audit log, the public log, the reports queue, the dashboard).
 */
export const moderationActionLabels: Record<ModerationAction, string> = {
  report_dismissed: 'Report dismissed',
  content_removed: 'Content removed',
  content_restored: 'Content restored',
  user_warned: 'Warning',
  user_suspended: 'Suspension',
  suspension_lifted: 'Suspension lifted',
  appeal_accepted: 'Appeal accepted',
  appeal_rejected: 'Appeal turned down',
  signup_approved: 'Sign-up approved',
  signup_rejected: 'Sign-up turned away',
  user_activated: 'Account activated',
  user_deactivated: 'Account deactivated',
  role_changed: 'Role changed',
  sessions_revoked: 'Signed out everywhere',
  reset_link_sent: 'Password reset link sent',
  user_deleted: 'Account deleted',
  note_added: 'Note added',
  rules_changed: 'Rules changed',
  settings_changed: 'Settings changed',
};

const subjectNames: Record<ModerationSubjectKind, string> = {
  post: 'a post',
  comment: 'a comment',
  report: 'a report',
  appeal: 'an appeal',
  rule: 'a rule',
};

const durations: Record<string, string> = {
  '1d': 'for 1 day',
  '3d': 'for 3 days',
  '7d': 'for 7 days',
  '30d': 'for 30 days',
  indefinite: 'indefinitely',
};

const roleNames: Record<string, string> = {
  user: 'member',
  moderator: 'moderator',
  admin: 'administrator',
};

/** What an action was done to and with, as far as the reader may know it. */
export interface ActionContext {
  /** The username as recorded; null for actions on no account, or an account whose name is unknown. */
  targetUsername: string | null;
  /** Whether the action was on an account at all (a deleted account has no username). */
  hasTarget: boolean;
  subjectKind: ModerationSubjectKind | null;
  /** The recorded details; the public log has none. */
  details: Record<string, unknown> | null;
}

function text(value: unknown): string | null {
  return typeof value === 'string' ? value : null;
}

/**
 * The action as a phrase that follows who did it: "suspended @bob for 3 days", "removed a post by @bob".
 * Used after a moderator's name in the audit log and after "Moderators" in the public log.
 */
export function describeAction(action: ModerationAction, context: ActionContext): string {
  const who = context.targetUsername
    ? `@${context.targetUsername}`
    : context.hasTarget
      ? 'a former member'
      : 'someone';
  const thing = context.subjectKind ? subjectNames[context.subjectKind] : 'content';
  const details = context.details ?? {};
  switch (action) {
    case 'report_dismissed':
      return `dismissed a report about ${who}`;
    case 'content_removed':
      return `removed ${thing} by ${who}`;
    case 'content_restored':
      return `restored ${thing} by ${who}`;
    case 'user_warned':
      return `warned ${who}`;
    case 'user_suspended': {
      const duration = durations[text(details.duration) ?? ''];
      return duration ? `suspended ${who} ${duration}` : `suspended ${who}`;
    }
    case 'suspension_lifted':
      return `lifted the suspension of ${who}`;
    case 'appeal_accepted':
      return `accepted the appeal of ${who}`;
    case 'appeal_rejected':
      return `turned down the appeal of ${who}`;
    case 'signup_approved':
      return `approved the sign-up of ${who}`;
    case 'signup_rejected':
      return `turned away the sign-up of ${who}`;
    case 'user_activated':
      return `activated the account of ${who}`;
    case 'user_deactivated':
      return `deactivated the account of ${who}`;
    case 'role_changed': {
      const role = roleNames[text(details.to) ?? text(details.role) ?? ''];
      return role
        ? `made ${who} ${role === 'administrator' ? 'an' : 'a'} ${role}`
        : `changed the role of ${who}`;
    }
    case 'sessions_revoked':
      return `signed ${who} out everywhere`;
    case 'reset_link_sent':
      return `sent ${who} a password reset link`;
    case 'user_deleted':
      return `deleted the account of ${who}`;
    case 'note_added':
      return `added a note about ${who}`;
    case 'rules_changed': {
      const change = text(details.change);
      if (change === 'added') return 'added a rule';
      if (change === 'edited') return 'edited a rule';
      if (change === 'deleted') return 'deleted a rule';
      if (change === 'reordered') return 'reordered the rules';
      return 'changed the rules';
    }
    case 'settings_changed':
      return 'changed the instance settings';
  }
}
