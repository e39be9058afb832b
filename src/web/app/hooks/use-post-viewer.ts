import { useMemo } from 'react';
import { useAuth } from '@web/features/auth/auth-state.js';
import type { PostViewerState } from '@web/features/posts/viewer.js';

/** The signed-in account as the post screens see it: undefined while loading, null when signed out. */
export function usePostViewer(): PostViewerState {
  const { isLoading, user } = useAuth();
  const uid = user?.uid;
  const isAdmin = user?.role === 'admin';
  // A suspended account may read but not write, as an inactive one (ADR 0021).
  const active = user ? user.active && !user.suspended : false;
  const suspended = user?.suspended ?? false;
  // Built from these four alone: a change to the rest of the account's document (its counts, its picture)
  // keeps the same object, so memoised post cards do not render again for it.
  return useMemo(() => {
    if (isLoading) return undefined;
    if (uid === undefined) return null;
    return { uid, isAdmin, active, suspended };
  }, [isLoading, uid, isAdmin, active, suspended]);
}
