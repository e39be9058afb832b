import { queryOptions, useQuery } from '@tanstack/react-query';
import { notificationEndpoints as api } from '@shared/contract/endpoints/notifications.js';
import type { NotificationSettings } from '@shared/schemas/notification.js';
import { callApi } from '@web/lib/api-client.js';
import { notificationKeys } from '../notification-keys.js';

/** GET /api/notifications/settings: per kind, in the app or not, and how it is mailed. */
export function getNotificationSettings(signal?: AbortSignal): Promise<NotificationSettings> {
  return callApi(api.getNotificationSettings, { signal });
}

export function getNotificationSettingsQueryOptions() {
  return queryOptions({
    queryKey: notificationKeys.settings(),
    queryFn: ({ signal }) => getNotificationSettings(signal),
    // An unsubscribe link may have changed them in another tab.
    staleTime: 0,
  });
}

export function useNotificationSettings(options: { enabled?: boolean } = {}) {
  return useQuery({ ...getNotificationSettingsQueryOptions(), enabled: options.enabled ?? true });
}
