import { useEffect } from 'react';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { followUnreadState, getUnreadStateQueryOptions } from './unread-state.js';

/**
 * The signed-in account's unread notifications (issue: notifications and search §2), live: read once over
 * HTTP, then kept current by the `notifications/{uid}` topic in every open tab. `uid` is null when nobody
 * is signed in, and then nothing is asked or followed. Every screen calling it shares one cache entry.
 */
export function useUnreadState(uid: string | null) {
  const queryClient = useQueryClient();
  useEffect(() => {
    if (uid === null) return;
    return followUnreadState(queryClient, uid);
  }, [queryClient, uid]);
  return useQuery({ ...getUnreadStateQueryOptions(uid ?? ''), enabled: uid !== null });
}
