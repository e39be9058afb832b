import { useMemo } from 'react';
import { useAuth } from '@web/features/auth/auth-state.js';
import type { PostViewerState } from '@web/features/posts/viewer.js';

/** The signed-in account as the post screens see it: undefined while loading, null when signed out. */
export function usePostViewer(): PostViewerState {
  const auth = useAuth();
  const user = auth.user;
  return useMemo(() => {
    if (auth.isLoading) return undefined;
    if (!user) return null;
    // A suspended account may read but not write, as an inactive one (ADR 0021).
    return {
      uid: user.uid,
      isAdmin: user.role === 'admin',
      active: user.active && !user.suspended,
      suspended: user.suspended,
    };
  }, [auth.isLoading, user]);
}
