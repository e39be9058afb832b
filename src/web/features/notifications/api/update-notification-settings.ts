import { useMutation, useQueryClient } from '@tanstack/react-query';
import { notificationEndpoints as api } from '@shared/contract/endpoints/notifications.js';
import type { NotificationSettings } from '@shared/schemas/notification.js';
import { callApi } from '@web/lib/api-client.js';
import { notificationKeys } from '../notification-keys.js';

/** PUT /api/notifications/settings: every kind at once; answers the settings as saved. */
export function updateNotificationSettings(
  settings: NotificationSettings,
): Promise<NotificationSettings> {
  return callApi(api.updateNotificationSettings, { body: settings });
}

export function useUpdateNotificationSettings() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: updateNotificationSettings,
    onSuccess: (saved) => {
      queryClient.setQueryData(notificationKeys.settings(), saved);
    },
  });
}
