import { Link } from 'react-router';
import { CompassIcon } from '@web/components/ui/icons.js';
import { LoadErrorPanel } from '@web/components/ui/load-error-panel.js';
import { StatusPanel } from '@web/components/ui/status-panel.js';
import { isApiError } from '@web/lib/api-client.js';
import { ProfileSkeleton } from './profile-skeleton.js';

/** The not-found state for a username (or uid) that names nobody. */
export function ProfileNotFound({ handle }: { handle: string | null }) {
  return (
    <div className="page page--narrow">
      <StatusPanel
        title="Profile not found"
        headingLevel={1}
        icon={<CompassIcon />}
        actions={
          <Link className="button button--primary" to="/feed">
            Go to the feed
          </Link>
        }
      >
        <p>
          {handle ? `No one here goes by @${handle}.` : 'This account does not exist.'} Check the
          spelling, or the account may have been removed.
        </p>
      </StatusPanel>
    </div>
  );
}

/** What a profile page shows while its user is not there: loading, a load error with retry, or not found. */
export function ProfileLoadState({
  query,
  handle,
}: {
  query: {
    isPending: boolean;
    isError: boolean;
    error: Error | null;
    refetch: () => Promise<unknown>;
  };
  handle: string | null;
}) {
  if (query.isPending) {
    return (
      <div className="page page--wide">
        <ProfileSkeleton />
      </div>
    );
  }
  if (query.error && !isApiError(query.error, 'not_found')) {
    return (
      <div className="page page--narrow">
        <LoadErrorPanel
          title="We couldn't load this profile"
          error={query.error}
          onRetry={() => {
            void query.refetch();
          }}
        />
      </div>
    );
  }
  return <ProfileNotFound handle={handle} />;
}
