import { useMutation, useQueryClient } from '@tanstack/react-query';
import { notificationEndpoints as api } from '@shared/contract/endpoints/notifications.js';
import type { UnreadState } from '@shared/schemas/notification.js';
import { callApi } from '@web/lib/api-client.js';
import { notificationKeys } from '../notification-keys.js';

/** POST /api/notifications/read: everything up to `upTo` is read; answers the new unread state. */
export function markNotificationsRead(upTo: string): Promise<UnreadState> {
  return callApi(api.markNotificationsRead, { body: { upTo } });
}

/**
 * The bell of this tab takes the answer at once; the other tabs hear it on the `notifications/{uid}`
 * topic. The list keeps the unread marks it was read with, so the reader still sees what was new.
 */
export function useMarkNotificationsRead(uid: string | null) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: markNotificationsRead,
    onSuccess: (state) => {
      if (uid) queryClient.setQueryData(notificationKeys.unread(uid), state);
    },
    onError: () => {
      if (uid) void queryClient.invalidateQueries({ queryKey: notificationKeys.unread(uid) });
    },
  });
}
