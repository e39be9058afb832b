import type { AuditQuery } from '@shared/schemas/audit.js';

/** Query keys of the instance's rules and settings, the audit log and the public moderation log. */
export const moderationKeys = {
  rules: () => ['instance', 'rules'] as const,
  settings: () => ['instance', 'settings'] as const,
  audit: (filters: Pick<AuditQuery, 'action' | 'actor' | 'target'>) =>
    ['instance', 'audit', filters] as const,
  auditAll: () => ['instance', 'audit'] as const,
  publicLog: () => ['instance', 'public-log'] as const,
};
