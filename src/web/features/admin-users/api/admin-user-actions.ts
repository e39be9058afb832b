import { useMutation, useQueryClient } from '@tanstack/react-query';
import { adminUserEndpoints as api } from '@shared/contract/endpoints/admin-users.js';
import { moderationEndpoints as moderation } from '@shared/contract/endpoints/moderation.js';
import type { SuspensionDuration } from '@shared/schemas/report.js';
import type { Role } from '@shared/roles.js';
import { callApi } from '@web/lib/api-client.js';
import { adminUserKeys } from '../admin-user-keys.js';

/** Every action the detail page offers, with what each needs. */
export type AdminUserAction =
  | { kind: 'approve' }
  | { kind: 'reject'; reason: string }
  | { kind: 'activate'; reason?: string }
  | { kind: 'deactivate'; reason?: string }
  | { kind: 'role'; role: Role; reason?: string }
  | { kind: 'sign-out' }
  | { kind: 'reset-link' }
  | { kind: 'delete'; reason: string }
  | { kind: 'note'; body: string }
  | { kind: 'warn'; reason: string }
  | { kind: 'suspend'; reason: string; duration: SuspensionDuration }
  | { kind: 'lift'; reason: string };

/** Sends one action on the account. */
export async function runAdminUserAction(uid: string, action: AdminUserAction): Promise<void> {
  const params = { uid };
  switch (action.kind) {
    case 'approve':
      await callApi(api.approveSignup, { params });
      return;
    case 'reject':
      await callApi(api.rejectSignup, { params, body: { reason: action.reason } });
      return;
    case 'activate':
    case 'deactivate':
      await callApi(api.setUserActive, {
        params,
        body: { active: action.kind === 'activate', reason: action.reason },
      });
      return;
    case 'role':
      await callApi(api.setUserRole, {
        params,
        body: { role: action.role, reason: action.reason },
      });
      return;
    case 'sign-out':
      await callApi(api.revokeUserSessions, { params });
      return;
    case 'reset-link':
      await callApi(api.sendUserResetLink, { params });
      return;
    case 'delete':
      await callApi(api.deleteAdminUser, { params, body: { reason: action.reason } });
      return;
    case 'note':
      await callApi(api.addModerationNote, { params, body: { body: action.body } });
      return;
    case 'warn':
      await callApi(moderation.warnUser, { params, body: { reason: action.reason } });
      return;
    case 'suspend':
      await callApi(moderation.suspendUser, {
        params,
        body: { reason: action.reason, duration: action.duration },
      });
      return;
    case 'lift':
      await callApi(moderation.liftSuspension, { params, body: { reason: action.reason } });
      return;
  }
}

/** Runs an action, then reads the account and the lists again. */
export function useAdminUserAction(uid: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (action: AdminUserAction) => runAdminUserAction(uid, action),
    onSettled: async () => {
      await queryClient.invalidateQueries({ queryKey: adminUserKeys.all });
    },
  });
}
