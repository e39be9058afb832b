import { useEffect } from 'react';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { usePageSettled } from '@web/lib/page-settled.js';
import { followUnreadState, getUnreadStateQueryOptions } from './unread-state.js';

/**
 * The signed-in account's unread notifications (issue: notifications and search §2), live: read once over
 * HTTP, then kept current by the `notifications/{uid}` topic in every open tab. `uid` is null when nobody
 * is signed in, and then nothing is asked or followed. Every screen calling it shares one cache entry.
 * On a first load the count is asked once the page has settled (ADR 0035): the badge can come a moment
 * after the posts.
 */
export function useUnreadState(uid: string | null) {
  const queryClient = useQueryClient();
  useEffect(() => {
    if (uid === null) return;
    return followUnreadState(queryClient, uid);
  }, [queryClient, uid]);
  const settled = usePageSettled();
  return useQuery({ ...getUnreadStateQueryOptions(uid ?? ''), enabled: uid !== null && settled });
}
