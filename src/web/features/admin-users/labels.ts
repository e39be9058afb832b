import type { AdminUserState } from '@shared/schemas/admin-user.js';
import type { ModerationAction } from '@shared/schemas/moderation.js';
import type { Role } from '@shared/roles.js';

export const roleLabels: Record<Role, string> = {
  user: 'User',
  moderator: 'Moderator',
  admin: 'Administrator',
};

export const stateLabels: Record<AdminUserState, string> = {
  active: 'Active',
  pending: 'Awaiting approval',
  suspended: 'Suspended',
  deactivated: 'Deactivated',
};

export const actionLabels: Record<ModerationAction, string> = {
  report_dismissed: 'Report dismissed',
  content_removed: 'Content removed',
  content_restored: 'Content restored',
  user_warned: 'Warned',
  user_suspended: 'Suspended',
  suspension_lifted: 'Suspension lifted',
  appeal_accepted: 'Appeal accepted',
  appeal_rejected: 'Appeal rejected',
  signup_approved: 'Sign-up approved',
  signup_rejected: 'Sign-up rejected',
  user_activated: 'Activated',
  user_deactivated: 'Deactivated',
  role_changed: 'Role changed',
  sessions_revoked: 'Signed out everywhere',
  reset_link_sent: 'Reset link sent',
  user_deleted: 'Deleted',
  note_added: 'Note added',
  rules_changed: 'Rules changed',
  settings_changed: 'Settings changed',
};
