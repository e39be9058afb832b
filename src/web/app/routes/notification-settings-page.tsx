import { Link, Navigate } from 'react-router';
import { isStaff } from '@shared/roles.js';
import { LoadErrorPanel } from '@web/components/ui/load-error-panel.js';
import { useAuth } from '@web/features/auth/auth-state.js';
import { decideSignedIn } from '@web/features/auth/guards.js';
import { useNotificationSettings } from '@web/features/notifications/api/get-notification-settings.js';
import { NotificationSettingsForm } from '@web/features/notifications/components/notification-settings-form.js';
import { usePageTitle } from '../hooks/use-page-title.js';

function SettingsSkeleton() {
  return (
    <div className="notification-kinds" aria-busy="true">
      <p className="visually-hidden" role="status">
        Loading your settings…
      </p>
      {[0, 1, 2].map((row) => (
        <div key={row} className="notification-kind notification-kind--skeleton" aria-hidden="true">
          <span className="skeleton skeleton--line skeleton--medium" />
          <span className="skeleton skeleton--line skeleton--short" />
        </div>
      ))}
    </div>
  );
}

function SettingsBody({ staff }: { staff: boolean }) {
  const query = useNotificationSettings();
  if (query.isPending) return <SettingsSkeleton />;
  if (query.isError) {
    return (
      <LoadErrorPanel
        title="We couldn’t load your notification settings"
        headingLevel={2}
        error={query.error}
        onRetry={() => {
          void query.refetch();
        }}
      />
    );
  }
  // Read afresh each time the page opens (staleTime 0), so a link used in a mail meanwhile shows here.
  return <NotificationSettingsForm initial={query.data} staff={staff} />;
}

/** /settings/notifications (issue: notifications §2), signed-in only: what reaches you, and how. */
export function NotificationSettingsPage() {
  const auth = useAuth();
  const decision = decideSignedIn(auth);
  usePageTitle('Notification settings');
  if (decision !== 'allow' && decision !== 'loading') {
    return <Navigate to={decision.redirect} replace />;
  }
  return (
    <div className="page page--narrow settings-page notification-settings-page">
      <header className="page__header">
        <Link className="back-link" to="/notifications">
          <span aria-hidden="true">←</span> Notifications
        </Link>
        <h1>Notification settings</h1>
        <p className="lede">
          For each kind: whether it shows in the app, and whether it is emailed to you as it
          happens, in one email a day, or never. Every email has a link to stop it. What the
          moderators tell you about your own account and posts always reaches you.
        </p>
      </header>
      <section className="card settings-section" aria-label="Notification kinds">
        {decision === 'loading' ? (
          <SettingsSkeleton />
        ) : (
          <SettingsBody staff={auth.user ? isStaff(auth.user.role) : false} />
        )}
      </section>
      <p className="notification-settings-page__more">
        Your email address and password are in <Link to="/settings/account">Account settings</Link>;
        the people you block or mute are in <Link to="/settings/privacy">Privacy settings</Link>.
      </p>
    </div>
  );
}
