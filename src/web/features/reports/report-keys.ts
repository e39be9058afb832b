import type { ReportStatus } from '@shared/schemas/report.js';

/** Query keys of the reports feature (STYLE.md: one factory per feature). */
export const reportKeys = {
  all: ['reports'] as const,
  rules: () => [...reportKeys.all, 'rules'] as const,
  mine: () => [...reportKeys.all, 'mine'] as const,
  queue: (status: ReportStatus) => [...reportKeys.all, 'queue', status] as const,
  appeals: (status: 'pending' | 'decided') => [...reportKeys.all, 'appeals', status] as const,
  suspension: (uid: string) => [...reportKeys.all, 'suspension', uid] as const,
};
