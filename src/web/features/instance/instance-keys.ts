/** Query keys of the installation's public settings. */
export const instanceKeys = {
  all: ['instance'] as const,
  detail: () => [...instanceKeys.all, 'detail'] as const,
};
