import type { FastifyPluginAsync } from 'fastify';
import { adminDashboardEndpoints as api } from '../../../shared/contract/endpoints/admin-dashboard.js';
import { serve } from '../../http/serve.js';
import type { DashboardService } from './dashboard.service.js';

/** The console's dashboard, and the web app's page-performance reports (issue: moderation and administration §4). */
export const dashboardRoutes: FastifyPluginAsync<{ dashboard: DashboardService }> = (
  app,
  { dashboard },
) => {
  serve(app, api.getDashboard, () => dashboard.dashboard());
  serve(app, api.getWebVitals, () => dashboard.webVitals());
  serve(app, api.reportWebVitals, async ({ body }) => {
    await dashboard.ingest(body);
    return null;
  });
  return Promise.resolve();
};
