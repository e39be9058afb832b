import { useMemo } from 'react';
import { Link } from 'react-router';
import type { Dashboard } from '@shared/schemas/dashboard.js';
import { EmberIcon } from '@web/components/ui/icons.js';
import { LoadErrorPanel } from '@web/components/ui/load-error-panel.js';
import { StatusPanel } from '@web/components/ui/status-panel.js';
import { useDashboard, useWebVitals } from '../api/get-dashboard.js';
import { ActivityChart, dayLabel, type ChartSeries } from './activity-chart.js';
import { WebVitalsTable } from './web-vitals-table.js';

const count = (value: number) => value.toLocaleString('en-GB');

function plural(value: number, one: string, many: string): string {
  return `${count(value)} ${value === 1 ? one : many}`;
}

/** "12 posts and 3 comments in the last 30 days; the busiest day was 3 May (5 posts)." */
export function chartSummary(
  days: readonly string[],
  series: readonly (ChartSeries & { one: string; many: string })[],
): string {
  const totals = series.map((entry) => entry.values.reduce((sum, value) => sum + value, 0));
  const said = series.map((entry, index) => plural(totals[index] ?? 0, entry.one, entry.many));
  const what =
    said.length > 1 ? `${said.slice(0, -1).join(', ')} and ${said.at(-1) ?? ''}` : said[0];
  const period = `in the last ${String(days.length)} days`;
  if (totals.every((total) => total === 0))
    return `No ${series.map((e) => e.many).join(' or ')} ${period}.`;
  const first = series[0];
  if (!first) return `${what ?? ''} ${period}.`;
  let busiest = 0;
  for (let index = 1; index < days.length; index += 1) {
    if ((first.values[index] ?? 0) > (first.values[busiest] ?? 0)) busiest = index;
  }
  const busiestValue = first.values[busiest] ?? 0;
  const day = days[busiest];
  return busiestValue > 0 && day
    ? `${what ?? ''} ${period}; the most ${first.many} on one day was ${count(busiestValue)}, on ${dayLabel(day)}.`
    : `${what ?? ''} ${period}.`;
}

interface StatProps {
  label: string;
  value: number;
  detail?: string;
  link?: { to: string; label: string };
  attention?: boolean;
}

function Stat({ label, value, detail, link, attention = false }: StatProps) {
  return (
    <li className={attention ? 'stat stat--attention' : 'stat'}>
      <p className="stat__label">{label}</p>
      <p className="stat__value">{count(value)}</p>
      {detail ? <p className="stat__detail">{detail}</p> : null}
      {link ? (
        <Link className="stat__link" to={link.to}>
          {link.label}
        </Link>
      ) : null}
    </li>
  );
}

function Charts({ dashboard }: { dashboard: Dashboard }) {
  const { days, signups, content } = useMemo(() => {
    const days = dashboard.days.map((entry) => entry.day);
    return {
      days,
      signups: [
        {
          label: 'Sign-ups',
          one: 'sign-up',
          many: 'sign-ups',
          values: dashboard.days.map((e) => e.signups),
        },
      ],
      content: [
        { label: 'Posts', one: 'post', many: 'posts', values: dashboard.days.map((e) => e.posts) },
        {
          label: 'Comments',
          one: 'comment',
          many: 'comments',
          values: dashboard.days.map((e) => e.comments),
        },
      ],
    };
  }, [dashboard.days]);
  const quiet = dashboard.days.every(
    (entry) => entry.signups === 0 && entry.posts === 0 && entry.comments === 0,
  );
  if (quiet) {
    return (
      <StatusPanel title="Nothing to chart yet" headingLevel={3} icon={<EmberIcon />}>
        <p>
          Sign-ups, posts and comments of the last 30 days are charted here as people join and
          write.
        </p>
      </StatusPanel>
    );
  }
  return (
    <>
      <ActivityChart
        title="Sign-ups per day"
        summary={chartSummary(days, signups)}
        days={days}
        series={signups}
      />
      <ActivityChart
        title="Posts and comments per day"
        summary={chartSummary(days, content)}
        days={days}
        series={content}
      />
    </>
  );
}

function PagePerformance() {
  const query = useWebVitals();
  if (query.isPending) {
    return (
      <div className="dashboard-skeleton" role="status">
        <span className="visually-hidden">Loading page performance</span>
        <div className="dashboard-skeleton__block" />
      </div>
    );
  }
  if (query.isError) {
    return (
      <LoadErrorPanel
        title="Page performance didn't load"
        error={query.error}
        headingLevel={2}
        onRetry={() => void query.refetch()}
      />
    );
  }
  if (query.data.pages.length === 0) {
    return (
      <StatusPanel title="No reports yet" headingLevel={3} icon={<EmberIcon />}>
        <p>
          A share of page loads reports how fast pages appeared and answered. Their figures for the
          last {query.data.days} days show up here.
        </p>
      </StatusPanel>
    );
  }
  return <WebVitalsTable report={query.data} />;
}

/** The console's dashboard (issue: moderation and administration §4): its loading, error and empty states. */
export function DashboardView() {
  const query = useDashboard();
  if (query.isPending) {
    return (
      <div className="dashboard-skeleton" role="status">
        <span className="visually-hidden">Loading the dashboard</span>
        <div className="dashboard-skeleton__block" />
        <div className="dashboard-skeleton__block" />
      </div>
    );
  }
  if (query.isError) {
    return (
      <LoadErrorPanel
        title="The dashboard didn't load"
        error={query.error}
        headingLevel={2}
        onRetry={() => void query.refetch()}
      />
    );
  }
  const dashboard = query.data;
  const counted = new Date(dashboard.generatedAt).toLocaleTimeString('en-GB', {
    hour: '2-digit',
    minute: '2-digit',
  });
  return (
    <>
      <p className="dashboard__updated">Counted at {counted}; figures refresh every 30 seconds.</p>
      <section className="dashboard__section" aria-labelledby="dashboard-attention">
        <h2 className="dashboard__section-title" id="dashboard-attention">
          Waiting for moderators
        </h2>
        <ul className="stat-grid">
          <Stat
            label="Open reports"
            value={dashboard.openReports}
            attention={dashboard.openReports > 0}
            link={{ to: '/admin/reports', label: 'Open the queue' }}
          />
          <Stat
            label="Open appeals"
            value={dashboard.openAppeals}
            attention={dashboard.openAppeals > 0}
            link={{ to: '/admin/reports', label: 'Open the queue' }}
          />
          <Stat
            label="Awaiting approval"
            value={dashboard.awaitingApproval}
            attention={dashboard.awaitingApproval > 0}
            link={{ to: '/admin/users', label: 'Review sign-ups' }}
          />
        </ul>
      </section>
      <section className="dashboard__section" aria-labelledby="dashboard-people">
        <h2 className="dashboard__section-title" id="dashboard-people">
          People and content
        </h2>
        <ul className="stat-grid">
          <Stat label="Active today" value={dashboard.activeUsers.day} detail="last 24 hours" />
          <Stat label="Active this week" value={dashboard.activeUsers.week} detail="last 7 days" />
          <Stat
            label="Active this month"
            value={dashboard.activeUsers.month}
            detail="last 30 days"
          />
          <Stat label="Accounts" value={dashboard.totals.users} />
          <Stat label="Posts" value={dashboard.totals.posts} />
          <Stat label="Comments" value={dashboard.totals.comments} />
          <Stat label="Images stored" value={dashboard.media.count} />
        </ul>
      </section>
      <section className="dashboard__section" aria-labelledby="dashboard-activity">
        <h2 className="dashboard__section-title" id="dashboard-activity">
          Activity, last 30 days
        </h2>
        <Charts dashboard={dashboard} />
      </section>
      <section className="dashboard__section" aria-labelledby="dashboard-performance">
        <h2 className="dashboard__section-title" id="dashboard-performance">
          Page performance
        </h2>
        <PagePerformance />
      </section>
    </>
  );
}
