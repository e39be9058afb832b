import { queryOptions, useQuery } from '@tanstack/react-query';
import { instanceEndpoints as api } from '@shared/contract/endpoints/instance.js';
import type { Instance } from '@shared/schemas/instance.js';
import { callApi } from '@web/lib/api-client.js';
import { instanceKeys } from '../instance-keys.js';

/** The product's name when the instance has not answered yet. */
export const fallbackInstanceName = 'Hearth';

/** GET /api/instance */
export function getInstance(signal?: AbortSignal): Promise<Instance> {
  return callApi(api.getInstance, { signal });
}

export function getInstanceQueryOptions() {
  return queryOptions({
    queryKey: instanceKeys.detail(),
    queryFn: ({ signal }) => getInstance(signal),
    // An operator changes these rarely; a reload picks the change up.
    staleTime: 10 * 60_000,
  });
}

export function useInstance() {
  return useQuery(getInstanceQueryOptions());
}

/** The instance name, or the product name until the instance has answered. */
export function useInstanceName(): string {
  return useInstance().data?.name ?? fallbackInstanceName;
}
