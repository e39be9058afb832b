/** Query keys of the console's dashboard (STYLE.md §4). */
export const adminKeys = {
  all: ['admin'] as const,
  dashboard: () => [...adminKeys.all, 'dashboard'] as const,
  webVitals: () => [...adminKeys.all, 'web-vitals'] as const,
};
