import type { MyReport, ReportOutcome } from '@shared/schemas/report.js';
import { LoadErrorPanel } from '@web/components/ui/load-error-panel.js';
import { LoadMoreButton } from '@web/components/ui/load-more-button.js';
import { StatusPanel } from '@web/components/ui/status-panel.js';
import { EmberIcon } from '@web/components/ui/icons.js';
import { fullTimeLabel, relativeTimeLabel } from '@web/lib/relative-time.js';
import { useNow } from '@web/lib/use-now.js';
import { useMyReports } from '../api/get-my-reports.js';
import { reasonLabels } from './report-dialog.js';

const outcomeLabels: Record<ReportOutcome, string> = {
  dismissed: 'The moderators found no reason to act.',
  removed: 'The moderators removed it.',
  warned: 'The moderators warned its author.',
  suspended: 'The moderators suspended its author.',
};

const thingLabels: Record<MyReport['targetKind'], string> = {
  post: 'A post',
  comment: 'A comment',
  profile: 'A profile',
};

function MyReportItem({ report, now }: { report: MyReport; now: number }) {
  return (
    <li className="my-report">
      <p>
        <strong>{thingLabels[report.targetKind]}</strong>, reported for{' '}
        {reasonLabels[report.reason].toLowerCase()}
      </p>
      {report.excerpt ? <p className="my-report__excerpt">“{report.excerpt}”</p> : null}
      <p>
        {report.status === 'open' || report.outcome === null ? (
          <span className="badge">Waiting for the moderators</span>
        ) : (
          <>
            <span className="badge">Resolved</span> {outcomeLabels[report.outcome]}
          </>
        )}
      </p>
      <p className="my-report__meta">
        Sent{' '}
        <time dateTime={report.createdAt} title={fullTimeLabel(report.createdAt)}>
          {relativeTimeLabel(report.createdAt, now)}
        </time>
        {report.resolvedAt ? (
          <>
            {' '}
            · resolved{' '}
            <time dateTime={report.resolvedAt} title={fullTimeLabel(report.resolvedAt)}>
              {relativeTimeLabel(report.resolvedAt, now)}
            </time>
          </>
        ) : null}
      </p>
    </li>
  );
}

/**
 * The reporter's own reports and what came of them (issue: moderation and administration §3), newest
 * first. Nobody is named: not who acted, and the people reported only by what they wrote.
 */
export function MyReports() {
  const now = useNow();
  const query = useMyReports();
  if (query.isPending) {
    return (
      <div className="my-reports" aria-busy="true">
        <p className="visually-hidden" role="status">
          Loading your reports…
        </p>
        <span className="skeleton skeleton--line skeleton--medium" aria-hidden="true" />
        <span className="skeleton skeleton--line skeleton--short" aria-hidden="true" />
      </div>
    );
  }
  if (query.isError) {
    return (
      <LoadErrorPanel
        title="We couldn’t load your reports"
        headingLevel={2}
        error={query.error}
        onRetry={() => {
          void query.refetch();
        }}
      />
    );
  }
  const reports = query.data.pages.flatMap((page) => page.items);
  if (reports.length === 0) {
    return (
      <StatusPanel title="No reports" icon={<EmberIcon />}>
        <p>
          When you report a post, a comment or a profile from its More menu, it shows up here with
          what the moderators did about it.
        </p>
      </StatusPanel>
    );
  }
  return (
    <>
      <ul className="my-reports" aria-label="Your reports">
        {reports.map((report) => (
          <MyReportItem key={report.id} report={report} now={now} />
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
    </>
  );
}
