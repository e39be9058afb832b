import { Link } from 'react-router';
import { EmberIcon } from '@web/components/ui/icons.js';
import { StatusPanel } from '@web/components/ui/status-panel.js';

type FeedEmptyStateProps =
  /** Following: nobody followed has posted (or nobody is followed yet). */
  | { kind: 'following'; everyoneHref: string }
  /** Everyone: the instance has no posts yet. */
  | { kind: 'everyone'; signedIn: boolean }
  /** A hashtag nobody has used yet. */
  | { kind: 'tag'; tag: string; feedHref: string };

/** The feed's finished empty states, each with the next step that makes sense. */
export function FeedEmptyState(props: FeedEmptyStateProps) {
  switch (props.kind) {
    case 'following':
      return (
        <StatusPanel
          title="Your feed is quiet"
          icon={<EmberIcon />}
          actions={
            <Link className="button button--primary" to={props.everyoneHref}>
              See what everyone is posting
            </Link>
          }
        >
          <p>
            Posts from the people you follow, and your own, show up here. Find people to follow in
            the Everyone feed.
          </p>
        </StatusPanel>
      );
    case 'everyone':
      return (
        <StatusPanel
          title="Nothing here yet"
          icon={<EmberIcon />}
          actions={
            props.signedIn ? null : (
              <>
                <Link className="button button--primary" to="/register">
                  Create an account
                </Link>
                <Link className="button button--secondary" to="/login">
                  Sign in
                </Link>
              </>
            )
          }
        >
          {props.signedIn ? (
            <p>Nobody has posted yet. Be the first: write something above.</p>
          ) : (
            <p>Join to be the first to post, or sign in if you already have an account.</p>
          )}
        </StatusPanel>
      );
    case 'tag':
      return (
        <StatusPanel
          title={`No posts with #${props.tag} yet`}
          icon={<EmberIcon />}
          actions={
            <Link className="button button--secondary" to={props.feedHref}>
              Back to the feed
            </Link>
          }
        >
          <p>Posts that mention #{props.tag} will show up here.</p>
        </StatusPanel>
      );
  }
}
