import { queryOptions, useQuery } from '@tanstack/react-query';
import { notificationEndpoints as api } from '@shared/contract/endpoints/notifications.js';
import type { UnsubscribeState } from '@shared/schemas/notification.js';
import { callApi } from '@web/lib/api-client.js';
import { notificationKeys } from '../notification-keys.js';

/** GET /api/unsubscribe/{token}: what the link stops, and whether it was used; changes nothing. */
export function getUnsubscribe(token: string, signal?: AbortSignal): Promise<UnsubscribeState> {
  return callApi(api.getUnsubscribe, { params: { token }, signal });
}

export function getUnsubscribeQueryOptions(token: string) {
  return queryOptions({
    queryKey: notificationKeys.unsubscribe(token),
    queryFn: ({ signal }) => getUnsubscribe(token, signal),
    staleTime: Infinity,
    refetchOnWindowFocus: false,
  });
}

export function useUnsubscribeState(token: string) {
  return useQuery(getUnsubscribeQueryOptions(token));
}
