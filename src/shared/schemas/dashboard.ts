import { z } from 'zod';
import {
  webVitalMetrics,
  webVitalPages,
  webVitalsBatchMax,
  webVitalThresholds,
  type WebVitalMetric,
} from '../web-vitals.js';

export {
  webVitalMetrics,
  webVitalPages,
  webVitalsBatchMax,
  webVitalThresholds,
  type WebVitalMetric,
  type WebVitalPage,
} from '../web-vitals.js';

/**
 * The console's dashboard (issue: moderation and administration §4, "Dashboard"): activity over the last
 * 30 days, the moderation backlog, and page-performance reports from the web app.
 */

/** Days in the activity charts, today (UTC) included. */
export const dashboardDays = 30;
/** Days of page-performance reports the dashboard summarises. */
export const webVitalsSummaryDays = 7;
/** Days of page-performance aggregates kept; older days are pruned. */
export const webVitalsKeepDays = 30;

/** One UTC day of activity. */
export const dashboardDaySchema = z.object({
  /** YYYY-MM-DD, UTC. */
  day: z.string(),
  signups: z.number().int().nonnegative(),
  posts: z.number().int().nonnegative(),
  comments: z.number().int().nonnegative(),
});
export type DashboardDay = z.infer<typeof dashboardDaySchema>;

export const dashboardSchema = z.object({
  /** When the figures were counted; they are kept for about half a minute. */
  generatedAt: z.string(),
  /** The last `dashboardDays` days, oldest first, every day present (zero when nothing happened). */
  days: z.array(dashboardDaySchema),
  /** Accounts that made a signed-in request within the last day, 7 days and 30 days. */
  activeUsers: z.object({
    day: z.number().int().nonnegative(),
    week: z.number().int().nonnegative(),
    month: z.number().int().nonnegative(),
  }),
  totals: z.object({
    users: z.number().int().nonnegative(),
    posts: z.number().int().nonnegative(),
    comments: z.number().int().nonnegative(),
  }),
  openReports: z.number().int().nonnegative(),
  openAppeals: z.number().int().nonnegative(),
  /** Sign-ups waiting for a moderator (approval mode). */
  awaitingApproval: z.number().int().nonnegative(),
  /** Stored images: the upload sizes are not recorded, so this is how many there are. */
  media: z.object({ count: z.number().int().nonnegative() }),
});
export type Dashboard = z.infer<typeof dashboardSchema>;

export const webVitalMetricSchema = z.enum(webVitalMetrics, { error: 'Not a web-vitals metric.' });

export const webVitalPageSchema = z.enum(webVitalPages, { error: 'Not a page of this app.' });

export const webVitalEntrySchema = z
  .object({
    page: webVitalPageSchema,
    metric: webVitalMetricSchema,
    value: z.number().nonnegative(),
  })
  .refine((entry) => entry.value <= webVitalThresholds[entry.metric].max, {
    message: 'The value is out of range for its metric.',
    path: ['value'],
  });
export type WebVitalEntry = z.infer<typeof webVitalEntrySchema>;

/** POST /api/vitals: one batch of measurements from one page load. */
export const webVitalsBatchSchema = z.object({
  entries: z
    .array(webVitalEntrySchema)
    .min(1, { error: 'Send at least one measurement.' })
    .max(webVitalsBatchMax, { error: `Send at most ${String(webVitalsBatchMax)} measurements.` }),
});
export type WebVitalsBatch = z.infer<typeof webVitalsBatchSchema>;

export const webVitalRatingSchema = z.enum(['good', 'needs-improvement', 'poor']);
export type WebVitalRating = z.infer<typeof webVitalRatingSchema>;

export const webVitalSummarySchema = z.object({
  metric: webVitalMetricSchema,
  /** The 75th percentile, estimated from the daily histograms (milliseconds, or the CLS score). */
  p75: z.number().nonnegative(),
  rating: webVitalRatingSchema,
  samples: z.number().int().positive(),
});
export type WebVitalSummary = z.infer<typeof webVitalSummarySchema>;

/** GET /api/admin/web-vitals: per page with reports, each metric reported. */
export const webVitalsReportSchema = z.object({
  /** The first day counted (YYYY-MM-DD, UTC); the summary runs to today. */
  since: z.string(),
  days: z.number().int().positive(),
  /** Pages with the most samples first. */
  pages: z.array(
    z.object({
      page: webVitalPageSchema,
      metrics: z.array(webVitalSummarySchema),
    }),
  ),
});
export type WebVitalsReport = z.infer<typeof webVitalsReportSchema>;

/** Good, needs improvement or poor, by the metric's thresholds. */
export function rateWebVital(metric: WebVitalMetric, value: number): WebVitalRating {
  const { good, poor } = webVitalThresholds[metric];
  if (value <= good) return 'good';
  if (value <= poor) return 'needs-improvement';
  return 'poor';
}
