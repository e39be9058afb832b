/**
 * What the web app's page-performance reporter needs to know, free of zod: it loads on every page once
 * the page has settled, and zod would add its whole library to that (issue 13). `schemas/dashboard.ts`
 * builds the schemas that check the reports on the server from these, and re-exports them.
 */

/** Entries in one batch from the web app. */
export const webVitalsBatchMax = 20;

/** The web-vitals metrics the web app reports. */
export const webVitalMetrics = ['LCP', 'INP', 'CLS', 'FCP', 'TTFB'] as const;
export type WebVitalMetric = (typeof webVitalMetrics)[number];

/**
 * Per metric: its unit, the largest value taken, and the "good" and "poor" thresholds from web.dev (at or
 * under `good` is good; over `poor` is poor; between needs improvement). Times are in milliseconds; CLS has
 * no unit.
 */
export const webVitalThresholds: Record<
  WebVitalMetric,
  { unit: 'ms' | 'score'; max: number; good: number; poor: number }
> = {
  LCP: { unit: 'ms', max: 120_000, good: 2_500, poor: 4_000 },
  INP: { unit: 'ms', max: 120_000, good: 200, poor: 500 },
  CLS: { unit: 'score', max: 100, good: 0.1, poor: 0.25 },
  FCP: { unit: 'ms', max: 120_000, good: 1_800, poor: 3_000 },
  TTFB: { unit: 'ms', max: 120_000, good: 800, poor: 1_800 },
};

/**
 * The pages reports are kept for: the app's route patterns, never a concrete address, so the table stays
 * small and holds nobody's name. `*` is any other address (the not-found page).
 */
export const webVitalPages = [
  '/',
  '/feed',
  '/signin',
  '/login',
  '/register',
  '/signup',
  '/logout',
  '/signout',
  '/post/:postId',
  '/reset-password',
  '/tos',
  '/privacy',
  '/user/:uid',
  '/settings/account',
  '/settings/notifications',
  '/settings/privacy',
  '/settings/suspension',
  '/notifications',
  '/about/moderation',
  '/admin/*',
  '/unsubscribe/:token',
  '/search',
  '/tags/:tag',
  '/ym/:username',
  '/:username',
  '/:username/edit-profile',
  '/:username/followers',
  '/:username/following',
  '*',
] as const;
export type WebVitalPage = (typeof webVitalPages)[number];
