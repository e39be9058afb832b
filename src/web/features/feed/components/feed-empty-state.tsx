import { Link } from 'react-router';
import { EmberIcon } from '@web/components/ui/icons.js';
import { StatusPanel } from '@web/components/ui/status-panel.js';

interface FeedEmptyStateProps {
  /** null while the auth state is still loading: the invitation waits rather than flicker. */
  signedIn: boolean | null;
}

/** The feed has no posts yet (posts arrive in a later release), so this is its finished empty state. */
export function FeedEmptyState({ signedIn }: FeedEmptyStateProps) {
  return (
    <StatusPanel
      title="Nothing here yet"
      icon={<EmberIcon />}
      actions={
        signedIn === false ? (
          <>
            <Link className="button button--primary" to="/register">
              Create an account
            </Link>
            <Link className="button button--secondary" to="/login">
              Sign in
            </Link>
          </>
        ) : null
      }
    >
      {signedIn === true ? <p>Posts from people you follow will appear here.</p> : null}
      {signedIn === false ? (
        <p>
          Join to follow people and see their posts here, or sign in if you already have an account.
        </p>
      ) : null}
    </StatusPanel>
  );
}
