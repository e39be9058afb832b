import { useState } from 'react';
import { useLocation } from 'react-router';
import { useSelfClearing } from '@web/lib/use-self-clearing.js';

/** A one-line notice carried in the history state to the page a flow ends on ("Your account was deleted."). */
export interface RouteNoticeState {
  notice: string;
}

/** The navigation state that shows `notice` at the top of the next page. */
export function withNotice(notice: string): RouteNoticeState {
  return { notice };
}

/** The notice in a location's state, if any. */
export function noticeOf(state: unknown): string | null {
  if (typeof state !== 'object' || state === null) return null;
  const notice = (state as { notice?: unknown }).notice;
  return typeof notice === 'string' && notice !== '' ? notice : null;
}

/**
 * Shows the notice a flow left for this page, until it clears itself. It lives in the history entry,
 * so it goes with the next navigation and is not carried into bookmarks or shared links.
 */
export function RouteNotice() {
  const location = useLocation();
  // Cleared per history entry: leaving the entry's state alone keeps Back and reload predictable.
  const [clearedKey, setClearedKey] = useState<string | null>(null);
  const notice = clearedKey === location.key ? null : noticeOf(location.state);
  const hold = useSelfClearing(notice === null ? null : location.key, () => {
    setClearedKey(location.key);
  });
  if (!notice) return null;
  return (
    <p className="notice route-notice" role="status" {...hold}>
      {notice}
    </p>
  );
}
