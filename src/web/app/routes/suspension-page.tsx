import { Link } from 'react-router';
import { LoadErrorPanel } from '@web/components/ui/load-error-panel.js';
import { StatusPanel } from '@web/components/ui/status-panel.js';
import { EmberIcon } from '@web/components/ui/icons.js';
import { useAuth } from '@web/features/auth/auth-state.js';
import { useMySuspension } from '@web/features/reports/api/get-my-suspension.js';
import { SuspensionDetails } from '@web/features/reports/components/suspension-details.js';
import { usePageTitle } from '../hooks/use-page-title.js';

function SuspensionSkeleton() {
  return (
    <section className="card settings-section" aria-busy="true">
      <p className="visually-hidden" role="status">
        Loading your account’s standing…
      </p>
      <span className="skeleton skeleton--line skeleton--medium" aria-hidden="true" />
      <span className="skeleton skeleton--line skeleton--short" aria-hidden="true" />
    </section>
  );
}

function SuspensionBody({ uid, suspended }: { uid: string; suspended: boolean }) {
  const query = useMySuspension(uid, suspended);
  if (query.isPending) return <SuspensionSkeleton />;
  if (query.isError) {
    return (
      <LoadErrorPanel
        title="We couldn’t load your account’s standing"
        headingLevel={2}
        error={query.error}
        onRetry={() => {
          void query.refetch();
        }}
      />
    );
  }
  const suspension = query.data.suspension;
  if (suspension === null) {
    return (
      <StatusPanel title="Your account is in good standing" icon={<EmberIcon />}>
        <p>It is not suspended. You can post, comment, like and follow as usual.</p>
        <p>
          <Link to="/feed">Go to your feed</Link>
        </p>
      </StatusPanel>
    );
  }
  return <SuspensionDetails uid={uid} suspension={suspension} />;
}

/**
 * /settings/suspension (issue: moderation and administration §5): a suspended account reads why and until
 * when, and appeals once; anyone else signed in is told their account is in good standing.
 */
export function SuspensionPage() {
  const auth = useAuth();
  usePageTitle('Account standing');
  return (
    <div className="page page--narrow settings-page suspension-page">
      <header className="page__header">
        <h1>Account standing</h1>
      </header>
      {auth.isLoading ? (
        <SuspensionSkeleton />
      ) : auth.user ? (
        <SuspensionBody uid={auth.user.uid} suspended={auth.user.suspended} />
      ) : (
        <StatusPanel
          title="Sign in to see your account’s standing"
          icon={<EmberIcon />}
          actions={
            <Link className="button button--primary" to="/login">
              Sign in
            </Link>
          }
        >
          <p>If your account was suspended, this page says why and lets you appeal.</p>
        </StatusPanel>
      )}
    </div>
  );
}
