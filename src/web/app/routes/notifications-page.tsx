import { useCallback, useId } from 'react';
import { Link, Navigate, useNavigate, useSearchParams } from 'react-router';
import type { NotificationTab } from '@shared/schemas/notification.js';
import { StatusPanel } from '@web/components/ui/status-panel.js';
import { EmberIcon } from '@web/components/ui/icons.js';
import { TabList, type TabOption } from '@web/components/ui/tab-list.js';
import { useAuth } from '@web/features/auth/auth-state.js';
import { decideSignedIn } from '@web/features/auth/guards.js';
import { useNotifications } from '@web/features/notifications/api/get-notifications.js';
import { NotificationSkeleton } from '@web/features/notifications/components/notification-item.js';
import {
  NotificationList,
  notificationsOf,
} from '@web/features/notifications/components/notification-list.js';
import { useMarkShownRead } from '@web/features/notifications/components/use-mark-shown-read.js';
import { MyReports } from '@web/features/reports/components/my-reports.js';
import { usePageTitle } from '../hooks/use-page-title.js';

/** The notification tabs, and the reporter's own reports with their outcomes (issue: moderation §3). */
type PageTab = NotificationTab | 'reports';

const tabs: readonly TabOption<PageTab>[] = [
  { value: 'all', label: 'All' },
  { value: 'mentions', label: 'Mentions' },
  { value: 'reports', label: 'Your reports' },
];

/** `?tab=mentions` or `?tab=reports`, or All (the default, which needs no parameter). */
function tabOf(params: URLSearchParams): PageTab {
  return tabs.find((option) => option.value === params.get('tab'))?.value ?? 'all';
}

function EmptyNotifications({ tab }: { tab: NotificationTab }) {
  return (
    <StatusPanel
      title={tab === 'mentions' ? 'No mentions yet' : 'No notifications yet'}
      icon={<EmberIcon />}
    >
      <p>
        {tab === 'mentions'
          ? 'When someone writes your @username in a post or a comment, it shows up here.'
          : 'When people follow you, like what you write, comment or mention you, it shows up here.'}
      </p>
      <p>
        Find people to follow in <Link to="/search">Search</Link> or the{' '}
        <Link to="/feed?tab=everyone">Everyone feed</Link>.
      </p>
    </StatusPanel>
  );
}

function TabPanel({ uid, tab, label }: { uid: string; tab: NotificationTab; label: string }) {
  const query = useNotifications(tab);
  const { refetch } = query;
  const shown = notificationsOf(query.data);
  const again = useCallback(() => {
    void refetch();
  }, [refetch]);
  // Marked once the list is in from the server, not from an earlier visit's copy.
  useMarkShownRead(uid, shown, query.isSuccess && !query.isFetching, again);
  return <NotificationList query={query} label={label} empty={<EmptyNotifications tab={tab} />} />;
}

/**
 * /notifications (issue: notifications §2), signed-in only: All and Mentions, newest first, grouped,
 * with Load more. What it shows is marked read, on every tab of the account.
 */
export function NotificationsPage() {
  const auth = useAuth();
  const decision = decideSignedIn(auth);
  const [params] = useSearchParams();
  const navigate = useNavigate();
  const id = useId();
  const tab = tabOf(params);
  usePageTitle(
    tab === 'mentions' ? 'Mentions' : tab === 'reports' ? 'Your reports' : 'Notifications',
  );

  if (decision !== 'allow' && decision !== 'loading') {
    return <Navigate to={decision.redirect} replace />;
  }
  const tabId = (value: PageTab) => `${id}-tab-${value}`;
  const panelId = `${id}-panel`;
  const label = tab === 'mentions' ? 'Mentions' : 'All notifications';

  return (
    <div className="page page--narrow notifications-page">
      <header className="page__header notifications-page__header">
        <h1>Notifications</h1>
        <Link className="notifications-page__settings" to="/settings/notifications">
          Notification settings
        </Link>
      </header>
      <TabList
        options={tabs}
        selected={tab}
        label="Notifications"
        onSelect={(value) => {
          // Replace, not push: switching tabs is looking, not going somewhere; reload keeps the tab.
          void navigate(
            { search: value === 'all' ? '' : `?tab=${value}` },
            { replace: true, preventScrollReset: true },
          );
        }}
        tabId={tabId}
        panelId={panelId}
      />
      <div role="tabpanel" id={panelId} aria-labelledby={tabId(tab)} className="feed-panel">
        {decision === 'loading' || !auth.user ? (
          <ul className="notification-list" aria-busy="true">
            <NotificationSkeleton />
            <NotificationSkeleton />
          </ul>
        ) : tab === 'reports' ? (
          <MyReports />
        ) : (
          <TabPanel key={tab} uid={auth.user.uid} tab={tab} label={label} />
        )}
      </div>
    </div>
  );
}
