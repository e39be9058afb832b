/** Query keys of the signed-in account's settings (STYLE.md §4). */
export const accountKeys = {
  all: ['account'] as const,
  sessions: () => [...accountKeys.all, 'sessions'] as const,
};
