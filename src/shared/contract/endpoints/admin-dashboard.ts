import { z } from 'zod';
import {
  dashboardSchema,
  webVitalsBatchSchema,
  webVitalsReportSchema,
} from '../../schemas/dashboard.js';
import { defineEndpoint } from '../endpoint.js';

/** The console's dashboard and the web app's page-performance reports (issue: moderation and administration §4). */
export const adminDashboardEndpoints = {
  getDashboard: defineEndpoint({
    id: 'getDashboard',
    method: 'GET',
    path: '/api/admin/dashboard',
    tag: 'Administration',
    summary: 'Activity and backlog figures for the console',
    description:
      'Sign-ups, posts and comments per UTC day over the last 30 days (every day present), active accounts over 1, 7 and 30 days, totals, open reports and appeals, sign-ups awaiting approval and stored images. Counted at most every 30 seconds.',
    access: 'moderator',
    status: 200,
    response: dashboardSchema,
  }),
  getWebVitals: defineEndpoint({
    id: 'getWebVitals',
    method: 'GET',
    path: '/api/admin/web-vitals',
    tag: 'Administration',
    summary: "The web app's page performance over the last 7 days",
    description:
      'Per page (a route pattern) and metric: the 75th percentile estimated from daily histograms, its rating against the "good" thresholds, and how many samples it rests on.',
    access: 'moderator',
    status: 200,
    response: webVitalsReportSchema,
  }),
  reportWebVitals: defineEndpoint({
    id: 'reportWebVitals',
    method: 'POST',
    path: '/api/vitals',
    tag: 'Instance',
    summary: 'Report page-performance measurements',
    description:
      'Sent by the web app with `navigator.sendBeacon` when a page is hidden: up to 20 measurements of LCP, INP, CLS, FCP and TTFB, each for a route pattern. Only daily counts per value range are kept, for 30 days. Same origin only.',
    access: 'public',
    body: webVitalsBatchSchema,
    status: 204,
    response: z.null(),
    rateLimit: ['web-vitals'],
  }),
} as const;
