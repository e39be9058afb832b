import { useMutation, useQueryClient } from '@tanstack/react-query';
import { notificationEndpoints as api } from '@shared/contract/endpoints/notifications.js';
import type { UnsubscribeState } from '@shared/schemas/notification.js';
import { callApi } from '@web/lib/api-client.js';
import { notificationKeys } from '../notification-keys.js';

/** POST /api/unsubscribe/{token}: that mail is turned off; a used link answers 409. */
export function unsubscribe(token: string): Promise<UnsubscribeState> {
  return callApi(api.unsubscribe, { params: { token }, body: {} });
}

export function useUnsubscribe(token: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: () => unsubscribe(token),
    onSuccess: (state) => {
      queryClient.setQueryData(notificationKeys.unsubscribe(token), state);
      // Whoever is signed in here may be the one who unsubscribed: their settings are read afresh.
      void queryClient.invalidateQueries({ queryKey: notificationKeys.settings() });
    },
  });
}
