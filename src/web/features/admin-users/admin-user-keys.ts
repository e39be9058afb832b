import type { AdminUserState } from '@shared/schemas/admin-user.js';
import type { Role } from '@shared/roles.js';

/** What the users list is filtered by (kept in the address). */
export interface AdminUserFilters {
  q: string;
  role: Role | '';
  state: AdminUserState | '';
}

/** Query keys of the console's users section (STYLE.md §4). */
export const adminUserKeys = {
  all: ['admin-users'] as const,
  lists: () => [...adminUserKeys.all, 'list'] as const,
  list: (filters: AdminUserFilters) => [...adminUserKeys.lists(), filters] as const,
  detail: (uid: string) => [...adminUserKeys.all, 'detail', uid] as const,
};
