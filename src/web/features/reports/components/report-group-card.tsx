import { useId, useRef, useState } from 'react';
import { Link } from 'react-router';
import { displayNameOf } from '@shared/display-name.js';
import { postPath, profilePath } from '@shared/paths.js';
import {
  suspensionDurations,
  type ReportGroup,
  type ReportOutcome,
  type ResolveAction,
  type SuspensionDuration,
} from '@shared/schemas/report.js';
import { ActionDialog } from '@web/components/ui/action-dialog.js';
import { RichText } from '@web/components/ui/rich-text.js';
import { fullTimeLabel, relativeTimeLabel } from '@web/lib/relative-time.js';
import { useNow } from '@web/lib/use-now.js';
import { useResolveReports } from '../api/resolve-reports.js';
import { reasonLabels } from './report-dialog.js';

const durationLabels: Record<SuspensionDuration, string> = {
  '1d': '1 day',
  '3d': '3 days',
  '7d': '7 days',
  '30d': '30 days',
  indefinite: 'Indefinitely',
};

const outcomeLabels: Record<ReportOutcome, string> = {
  dismissed: 'Dismissed',
  removed: 'Content removed',
  warned: 'Author warned',
  suspended: 'Author suspended',
};

const kindLabels: Record<ReportGroup['targetKind'], string> = {
  post: 'Post',
  comment: 'Comment',
  profile: 'Profile',
};

function plural(count: number, one: string, many: string): string {
  return `${String(count)} ${count === 1 ? one : many}`;
}

/** Where the reported thing lives now, when it still does. */
function targetHref(group: ReportGroup): string | null {
  if (group.contentState !== 'exists') return null;
  switch (group.targetKind) {
    case 'post':
      return postPath(group.targetId);
    case 'comment':
      return group.snapshot.postId ? postPath(group.snapshot.postId) : null;
    case 'profile':
      return group.author ? profilePath(group.author) : null;
  }
}

interface GroupActionDialogProps {
  group: ReportGroup;
  action: ResolveAction;
  authorName: string;
  onClose: () => void;
  returnFocus: () => HTMLElement | null;
}

const actionTitles: Record<ResolveAction, string> = {
  dismiss: 'Dismiss the reports',
  remove: 'Remove the content',
  warn: 'Warn the author',
  suspend: 'Suspend the author',
};

function GroupActionDialog({
  group,
  action,
  authorName,
  onClose,
  returnFocus,
}: GroupActionDialogProps) {
  const resolve = useResolveReports();
  const [duration, setDuration] = useState<SuspensionDuration>('3d');
  const durationId = useId();
  const thing = kindLabels[group.targetKind].toLowerCase();
  const about: Record<ResolveAction, string> = {
    dismiss: `The ${plural(group.reportCount, 'report', 'reports')} close with nothing done. Each reporter is told, with your reason.`,
    remove: `The ${thing} is hidden from everyone but ${authorName}, who is told why. The reports close.`,
    warn: `${authorName} gets a warning with your reason. The reports close.`,
    suspend: `${authorName} can still sign in and read, but cannot write, until the suspension ends. They are told why and may appeal once. The reports close.`,
  };
  return (
    <ActionDialog
      reason="sent"
      title={actionTitles[action]}
      confirmLabel={actionTitles[action].split(' ')[0] ?? 'Confirm'}
      busyLabel="Saving…"
      tone={action === 'dismiss' ? 'primary' : 'danger'}
      returnFocus={returnFocus}
      onClose={onClose}
      extra={
        action === 'suspend' ? (
          <div className="field">
            <label className="field__label" htmlFor={durationId}>
              For how long
            </label>
            <select
              id={durationId}
              name="duration"
              className="field__input"
              value={duration}
              onChange={(event) => {
                const chosen = suspensionDurations.find((value) => value === event.target.value);
                if (chosen) setDuration(chosen);
              }}
            >
              {suspensionDurations.map((value) => (
                <option key={value} value={value}>
                  {durationLabels[value]}
                </option>
              ))}
            </select>
          </div>
        ) : null
      }
      onConfirm={async (reason) => {
        await resolve.mutateAsync({
          targetKind: group.targetKind,
          targetId: group.targetId,
          action,
          reason,
          duration: action === 'suspend' ? duration : undefined,
        });
        onClose();
      }}
    >
      <p>{about[action]}</p>
    </ActionDialog>
  );
}

/**
 * One reported post, comment or profile in the queue (issue: moderation and administration §4, "Reports
 * queue"): the content as it was reported, its state now, its author with their earlier moderation, every
 * report, and — while open — the actions, each asking for the reason sent to the person.
 */
export function ReportGroupCard({ group }: { group: ReportGroup }) {
  const now = useNow();
  const [action, setAction] = useState<ResolveAction | null>(null);
  const opener = useRef<HTMLButtonElement | null>(null);
  const headingId = useId();
  const snapshot = group.snapshot;
  const authorName = group.author
    ? displayNameOf(group.author)
    : (snapshot.author.displayName ?? snapshot.author.username ?? 'A deleted account');
  const href = targetHref(group);
  // Resolved groups keep the actions that still make sense (a warning after a removal, say); there is
  // nothing left to dismiss.
  const actions: ResolveAction[] = group.status === 'open' ? ['dismiss'] : [];
  if (group.targetKind !== 'profile' && group.contentState === 'exists') actions.push('remove');
  actions.push('warn', 'suspend');
  const outcome = group.reports.find((report) => report.outcome !== null)?.outcome ?? null;

  return (
    <article className="card report-group" aria-labelledby={headingId}>
      <header className="report-group__header">
        <h2 id={headingId} className="report-group__title">
          {kindLabels[group.targetKind]} by {authorName}
        </h2>
        <p className="report-group__badges">
          <span className="badge">{plural(group.reportCount, 'report', 'reports')}</span>
          {group.contentState === 'deleted' ? (
            <span className="badge badge--muted">Deleted by its author</span>
          ) : null}
          {group.contentState === 'removed' ? (
            <span className="badge badge--danger">Removed</span>
          ) : null}
          {group.author?.suspended ? (
            <span className="badge badge--danger">Author suspended</span>
          ) : null}
          {group.status === 'resolved' && outcome ? (
            <span className="badge">{outcomeLabels[outcome]}</span>
          ) : null}
        </p>
      </header>

      <div className="report-group__body">
        <section className="report-group__content" aria-label="Reported content">
          <p className="report-group__meta">
            As reported · written{' '}
            <time dateTime={snapshot.createdAt} title={fullTimeLabel(snapshot.createdAt)}>
              {relativeTimeLabel(snapshot.createdAt, now)}
            </time>
            {href ? (
              <>
                {' '}
                · <Link to={href}>Open</Link>
              </>
            ) : null}
          </p>
          {snapshot.text ? (
            <RichText as="div" className="report-group__text" text={snapshot.text} />
          ) : (
            <p className="report-group__empty">No text.</p>
          )}
          {snapshot.images.length > 0 ? (
            <ul className="report-group__images" aria-label="Images">
              {snapshot.images.map((image, index) => (
                <li key={image.key ?? `${image.url}-${String(index)}`}>
                  <img
                    src={image.url}
                    alt={image.alt ?? `Image ${String(index + 1)}, without a description`}
                    loading="lazy"
                    className="report-group__image"
                  />
                </li>
              ))}
            </ul>
          ) : null}
          {group.removal ? (
            <p className="report-group__removal">
              Removed {fullTimeLabel(group.removal.at)}: {group.removal.reason}
            </p>
          ) : null}
        </section>

        <section className="report-group__author" aria-label="Author">
          {group.author ? (
            <p>
              <Link to={`/admin/users/${group.author.uid}`}>{authorName}</Link>
              {group.author.username ? (
                <span className="report-group__username"> @{group.author.username}</span>
              ) : null}
              {group.author.role !== 'user' ? ` · ${group.author.role}` : null}
            </p>
          ) : (
            <p>{authorName} (account deleted)</p>
          )}
          <p className="report-group__history">
            {group.history.count === 0
              ? 'No earlier moderation.'
              : `Earlier moderation: ${plural(group.history.count, 'entry', 'entries')}`}
          </p>
          {group.history.recent.length > 0 ? (
            <ul className="report-group__history-list">
              {group.history.recent.map((entry) => (
                <li key={entry.id}>
                  {entry.action.replaceAll('_', ' ')} by {entry.actorName},{' '}
                  <time dateTime={entry.createdAt}>{relativeTimeLabel(entry.createdAt, now)}</time>
                  {entry.reason ? `: ${entry.reason}` : ''}
                </li>
              ))}
            </ul>
          ) : null}
        </section>
      </div>

      <section aria-label="Reports">
        <ul className="report-group__reports">
          {group.reports.map((report) => (
            <li key={report.id} className="report-group__report">
              <p>
                <strong>{reasonLabels[report.reason]}</strong>
                {report.reason === 'rule' && report.ruleText ? `: ${report.ruleText}` : ''}
              </p>
              {report.comment ? <p className="report-group__comment">“{report.comment}”</p> : null}
              <p className="report-group__meta">
                {report.reporter ? (
                  <Link to={`/admin/users/${report.reporter.uid}`}>
                    {displayNameOf(report.reporter)}
                  </Link>
                ) : (
                  'A deleted account'
                )}
                ,{' '}
                <time dateTime={report.createdAt} title={fullTimeLabel(report.createdAt)}>
                  {relativeTimeLabel(report.createdAt, now)}
                </time>
              </p>
            </li>
          ))}
        </ul>
        {group.reportCount > group.reports.length ? (
          <p className="report-group__meta">
            and{' '}
            {plural(group.reportCount - group.reports.length, 'earlier report', 'earlier reports')}
          </p>
        ) : null}
      </section>

      {actions.length > 0 ? (
        <div
          className="report-group__actions"
          role="group"
          aria-label={`Act on this ${kindLabels[group.targetKind].toLowerCase()}`}
        >
          {actions.map((value) => (
            <button
              key={value}
              type="button"
              className={`button button--small ${value === 'dismiss' ? 'button--secondary' : 'button--danger'}`}
              aria-haspopup="dialog"
              onClick={(event) => {
                opener.current = event.currentTarget;
                setAction(value);
              }}
            >
              {actionTitles[value].split(' ')[0]}
            </button>
          ))}
        </div>
      ) : null}

      {action ? (
        <GroupActionDialog
          group={group}
          action={action}
          authorName={authorName}
          returnFocus={() => opener.current}
          onClose={() => {
            setAction(null);
          }}
        />
      ) : null}
    </article>
  );
}
