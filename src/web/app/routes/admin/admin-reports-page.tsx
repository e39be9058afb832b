import { useId, type ReactNode } from 'react';
import { useNavigate, useSearchParams } from 'react-router';
import type { InfiniteData, UseInfiniteQueryResult } from '@tanstack/react-query';
import type { Page } from '@shared/schemas/post.js';
import { EmberIcon } from '@web/components/ui/icons.js';
import { LoadErrorPanel } from '@web/components/ui/load-error-panel.js';
import { LoadMoreButton } from '@web/components/ui/load-more-button.js';
import { StatusPanel } from '@web/components/ui/status-panel.js';
import { TabList, type TabOption } from '@web/components/ui/tab-list.js';
import { useAppeals } from '@web/features/reports/api/get-appeals.js';
import { useReportGroups } from '@web/features/reports/api/get-report-groups.js';
import { AppealCard } from '@web/features/reports/components/appeal-card.js';
import { ReportGroupCard } from '@web/features/reports/components/report-group-card.js';
import { useModerationLive } from '@web/features/reports/hooks/use-moderation-live.js';
import { usePageTitle } from '../../hooks/use-page-title.js';
import '../../../styles/moderation-queue.css';

type QueueTab = 'open' | 'resolved' | 'appeals' | 'decided';

const tabs: readonly TabOption<QueueTab>[] = [
  { value: 'open', label: 'Open' },
  { value: 'resolved', label: 'Resolved' },
  { value: 'appeals', label: 'Appeals' },
  { value: 'decided', label: 'Decided appeals' },
];

const emptyText: Record<QueueTab, { title: string; body: string }> = {
  open: { title: 'No open reports', body: 'New reports appear here as they are made.' },
  resolved: { title: 'No resolved reports yet', body: 'Reports you act on are kept here.' },
  appeals: {
    title: 'No open appeals',
    body: 'Appeals of suspensions appear here as they are made.',
  },
  decided: { title: 'No decided appeals yet', body: 'Appeals you decide are kept here.' },
};

/** `?tab=resolved|appeals|decided`, or Open (the default, which needs no parameter). */
function tabOf(params: URLSearchParams): QueueTab {
  return tabs.find((tab) => tab.value === params.get('tab'))?.value ?? 'open';
}

function QueueSkeleton() {
  return (
    <div className="queue" aria-busy="true">
      <p className="visually-hidden" role="status">
        Loading…
      </p>
      {[0, 1].map((row) => (
        <div key={row} className="card report-group report-group--skeleton" aria-hidden="true">
          <span className="skeleton skeleton--line skeleton--medium" />
          <span className="skeleton skeleton--line" />
          <span className="skeleton skeleton--line skeleton--short" />
        </div>
      ))}
    </div>
  );
}

interface QueueListProps<T extends { id: string }> {
  query: UseInfiniteQueryResult<InfiniteData<Page<T>>>;
  tab: QueueTab;
  render: (item: T) => ReactNode;
}

/** A paged list of the queue with its loading, error, empty and Load more states. */
function QueueList<T extends { id: string }>({ query, tab, render }: QueueListProps<T>) {
  if (query.isPending) return <QueueSkeleton />;
  const data = query.data;
  if (!data) {
    return (
      <LoadErrorPanel
        title="We couldn’t load the queue"
        headingLevel={2}
        error={query.error}
        onRetry={() => {
          void query.refetch();
        }}
      />
    );
  }
  const items = data.pages.flatMap((page) => page.items);
  if (items.length === 0) {
    return (
      <StatusPanel title={emptyText[tab].title} icon={<EmberIcon />}>
        <p>{emptyText[tab].body}</p>
      </StatusPanel>
    );
  }
  return (
    <div className="queue">
      <ul className="queue__list">
        {items.map((item) => (
          <li key={item.id}>{render(item)}</li>
        ))}
      </ul>
      {query.hasNextPage ? (
        <LoadMoreButton
          busy={query.isFetchingNextPage}
          onLoad={() => {
            void query.fetchNextPage();
          }}
        />
      ) : null}
      {query.isFetchNextPageError ? (
        <p className="field__error" role="alert">
          The next page did not load. Try Load more again.
        </p>
      ) : null}
    </div>
  );
}

function ReportsPanel({ status }: { status: 'open' | 'resolved' }) {
  const query = useReportGroups(status);
  return (
    <QueueList query={query} tab={status} render={(group) => <ReportGroupCard group={group} />} />
  );
}

function AppealsPanel({ status }: { status: 'pending' | 'decided' }) {
  const query = useAppeals(status);
  return (
    <QueueList
      query={query}
      tab={status === 'pending' ? 'appeals' : 'decided'}
      render={(appeal) => <AppealCard appeal={appeal} />}
    />
  );
}

/**
 * /admin/reports (issue: moderation and administration §4, "Reports queue"), inside the console's layout,
 * which admits moderators and administrators only: open and resolved reports grouped by target, and the
 * appeals of suspensions. Live: the staff topic `moderation` moves its revision on every change, and the
 * lists are read again.
 */
export function AdminReportsPage() {
  const [params] = useSearchParams();
  const navigate = useNavigate();
  const id = useId();
  const tab = tabOf(params);
  usePageTitle(tab === 'appeals' || tab === 'decided' ? 'Appeals' : 'Reports');
  useModerationLive();

  const tabId = (value: QueueTab) => `${id}-tab-${value}`;
  const panelId = `${id}-panel`;
  return (
    <div className="moderation-queue">
      <header className="page__header">
        <h1>Reports</h1>
        <p className="lede">
          Act on what people reported. Every action asks for a reason, which is sent to the person
          and kept in the audit log.
        </p>
      </header>
      <TabList
        options={tabs}
        selected={tab}
        label="Reports queue"
        onSelect={(value) => {
          void navigate(
            { search: value === 'open' ? '' : `?tab=${value}` },
            { replace: true, preventScrollReset: true },
          );
        }}
        tabId={tabId}
        panelId={panelId}
      />
      <div role="tabpanel" id={panelId} aria-labelledby={tabId(tab)} className="feed-panel">
        {tab === 'open' || tab === 'resolved' ? (
          <ReportsPanel key={tab} status={tab} />
        ) : (
          <AppealsPanel key={tab} status={tab === 'appeals' ? 'pending' : 'decided'} />
        )}
      </div>
    </div>
  );
}
