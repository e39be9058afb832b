import { useLocation } from 'react-router';

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
 * Shows the notice a flow left for this page. It lives in the history entry, so it goes with the
 * next navigation and is not carried into bookmarks or shared links.
 */
export function RouteNotice() {
  const notice = noticeOf(useLocation().state);
  if (!notice) return null;
  return (
    <p className="notice route-notice" role="status">
      {notice}
    </p>
  );
}
