import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { adminInstanceEndpoints as api } from '@shared/contract/endpoints/admin-instance.js';
import type { InstanceSettings } from '@shared/schemas/instance.js';
import { callApi } from '@web/lib/api-client.js';
import { instanceKeys } from '../instance-keys.js';
import { moderationKeys } from '../moderation-keys.js';

/** GET /api/admin/instance: moderators and administrators. */
export function getInstanceSettings(signal?: AbortSignal): Promise<InstanceSettings> {
  return callApi(api.getInstanceSettings, { signal });
}

export function useInstanceSettings() {
  return useQuery(
    queryOptions({
      queryKey: moderationKeys.settings(),
      queryFn: ({ signal }) => getInstanceSettings(signal),
      staleTime: 0,
    }),
  );
}

export interface SettingsChange {
  registrationMode?: InstanceSettings['registrationMode'];
  signupQuestion?: string | null;
  publicModerationLog?: boolean;
}

/** PATCH /api/admin/instance: administrators; answers every setting as saved. */
export function updateInstanceSettings(change: SettingsChange): Promise<InstanceSettings> {
  return callApi(api.updateInstanceSettings, { body: change });
}

export function useUpdateInstanceSettings() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: updateInstanceSettings,
    onSuccess: (saved) => {
      queryClient.setQueryData(moderationKeys.settings(), saved);
      // The public description (sign-up, the public log) follows at once in this tab.
      void queryClient.invalidateQueries({ queryKey: instanceKeys.detail() });
      void queryClient.invalidateQueries({ queryKey: moderationKeys.publicLog() });
    },
  });
}
