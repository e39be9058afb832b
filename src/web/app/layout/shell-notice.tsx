import { Link } from 'react-router';
import { postPath } from '@shared/paths.js';
import { useSelfClearing } from '@web/lib/use-self-clearing.js';

/** What the shell has to say after the Write dialog: the new post, or why the dialog did not open. */
export type ShellNoticeState =
  { kind: 'published'; postId: string } | { kind: 'load-failed'; message: string };

interface ShellNoticeProps {
  notice: ShellNoticeState | null;
  /** The Write dialog is open: its outcome's live region must be on the page before the outcome. */
  expectingOutcome: boolean;
  onClear: () => void;
}

/**
 * A short note at the bottom of the screen. "Your post is published" with a link to it clears itself
 * (and stays while pointed at or focused, WCAG 2.2.2); a failure stays until dismissed. The status
 * region is there from the moment the Write dialog opens, so screen readers announce the outcome, and
 * gone otherwise, so pages keep their own status messages to themselves.
 */
export function ShellNotice({ notice, expectingOutcome, onClear }: ShellNoticeProps) {
  const published = notice?.kind === 'published' ? notice : null;
  const failed = notice?.kind === 'load-failed' ? notice : null;
  const hold = useSelfClearing(published, onClear);
  return (
    <div className="shell-notice">
      {expectingOutcome || published ? (
        <div role="status" className="shell-notice__region" {...hold}>
          {published ? (
            <p className="shell-notice__message alert alert--success">
              Your post is published.{' '}
              <Link to={postPath(published.postId)} onClick={onClear}>
                View post
              </Link>
            </p>
          ) : null}
        </div>
      ) : null}
      {failed ? (
        // An alert is announced as it is inserted: it needs no region waiting for it.
        <div role="alert" className="shell-notice__region">
          <p className="shell-notice__message alert alert--error">
            {failed.message}{' '}
            <button type="button" className="button button--ghost button--small" onClick={onClear}>
              Dismiss
            </button>
          </p>
        </div>
      ) : null}
    </div>
  );
}
