import { useMutation, useQueryClient } from '@tanstack/react-query';
import { authEndpoints as api } from '@shared/contract/endpoints/auth.js';
import type { SessionResponse } from '@shared/schemas/auth.js';
import { callApi } from '@web/lib/api-client.js';
import { browserDraftStorage, forgetAccountDrafts } from '@web/lib/drafts.js';
import { authKeys } from '../auth-keys.js';
import { applySessionChange } from '../session-sync.js';

/** POST /api/auth/sign-out */
export function signOut(): Promise<{ ok: true }> {
  return callApi(api.signOut);
}

export function useSignOut() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: signOut,
    onSuccess: () => {
      // The account's drafts leave the device with it (issue: notifications, search and the everyday things §4).
      const uid = queryClient.getQueryData<SessionResponse>(authKeys.session())?.user?.uid;
      if (uid) forgetAccountDrafts(browserDraftStorage(), uid);
      applySessionChange(queryClient, null);
    },
  });
}
