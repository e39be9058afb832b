import { queryOptions, useQuery } from '@tanstack/react-query';
import { adminInstanceEndpoints } from '@shared/contract/endpoints/admin-instance.js';
import type { InstanceRules } from '@shared/schemas/instance.js';
import { callApi } from '@web/lib/api-client.js';
import { reportKeys } from '../report-keys.js';

/** GET /api/instance/rules: the rules a report may name, in order. */
export function getRules(signal?: AbortSignal): Promise<InstanceRules> {
  return callApi(adminInstanceEndpoints.listRules, { signal });
}

export function getRulesQueryOptions() {
  return queryOptions({
    queryKey: reportKeys.rules(),
    queryFn: ({ signal }) => getRules(signal),
    staleTime: 5 * 60_000,
  });
}

export function useRules(options: { enabled?: boolean } = {}) {
  return useQuery({ ...getRulesQueryOptions(), enabled: options.enabled ?? true });
}
