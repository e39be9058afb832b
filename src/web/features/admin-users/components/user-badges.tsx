import type { AdminUserState } from '@shared/schemas/admin-user.js';
import type { Role } from '@shared/roles.js';
import { roleLabels, stateLabels } from '../labels.js';

/** The account's role (when not an ordinary user) and state, as small labels. */
export function UserBadges({ role, state }: { role: Role; state: AdminUserState }) {
  return (
    <span className="admin-user-badges">
      {role !== 'user' ? (
        <span className={`badge admin-badge admin-badge--role-${role}`}>{roleLabels[role]}</span>
      ) : null}
      <span className={`badge admin-badge admin-badge--${state}`}>{stateLabels[state]}</span>
    </span>
  );
}
