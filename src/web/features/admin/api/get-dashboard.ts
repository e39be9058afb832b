import { queryOptions, useQuery } from '@tanstack/react-query';
import { adminDashboardEndpoints as api } from '@shared/contract/endpoints/admin-dashboard.js';
import type { Dashboard, WebVitalsReport } from '@shared/schemas/dashboard.js';
import { callApi } from '@web/lib/api-client.js';
import { adminKeys } from '../admin-keys.js';

/** GET /api/admin/dashboard: activity over 30 days and the moderation backlog. */
export function getDashboard(signal?: AbortSignal): Promise<Dashboard> {
  return callApi(api.getDashboard, { signal });
}

/** GET /api/admin/web-vitals: page performance over the last 7 days. */
export function getWebVitals(signal?: AbortSignal): Promise<WebVitalsReport> {
  return callApi(api.getWebVitals, { signal });
}

export function getDashboardQueryOptions() {
  return queryOptions({
    queryKey: adminKeys.dashboard(),
    queryFn: ({ signal }) => getDashboard(signal),
    // The server counts at most every 30 seconds.
    staleTime: 30_000,
  });
}

export function getWebVitalsQueryOptions() {
  return queryOptions({
    queryKey: adminKeys.webVitals(),
    queryFn: ({ signal }) => getWebVitals(signal),
    staleTime: 30_000,
  });
}

export function useDashboard() {
  return useQuery(getDashboardQueryOptions());
}

export function useWebVitals() {
  return useQuery(getWebVitalsQueryOptions());
}
