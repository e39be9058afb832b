import { useId, useRef, useState } from 'react';
import { Link } from 'react-router';
import { displayNameOf } from '@shared/display-name.js';
import type { Appeal } from '@shared/schemas/report.js';
import { ActionDialog } from '@web/components/ui/action-dialog.js';
import { fullTimeLabel, relativeTimeLabel } from '@web/lib/relative-time.js';
import { useNow } from '@web/lib/use-now.js';
import { useDecideAppeal } from '../api/decide-appeal.js';

/**
 * One appeal (issue: moderation and administration §5): who, the suspension it answers and its reason,
 * what they wrote, and — while pending — Accept (lifts the suspension) or Reject, each with a reason.
 */
export function AppealCard({ appeal }: { appeal: Appeal }) {
  const now = useNow();
  const decide = useDecideAppeal();
  const [deciding, setDeciding] = useState<'accept' | 'reject' | null>(null);
  const opener = useRef<HTMLButtonElement | null>(null);
  const headingId = useId();
  const name = appeal.user ? displayNameOf(appeal.user) : 'A deleted account';
  const { suspension } = appeal;

  return (
    <article className="card report-group appeal" aria-labelledby={headingId}>
      <header className="report-group__header">
        <h2 id={headingId} className="report-group__title">
          Appeal by {name}
        </h2>
        <p className="report-group__badges">
          {appeal.status === 'pending' ? (
            <span className="badge">Pending</span>
          ) : (
            <span className={`badge${appeal.status === 'rejected' ? ' badge--danger' : ''}`}>
              {appeal.status === 'accepted' ? 'Accepted' : 'Rejected'}
            </span>
          )}
          {suspension.current ? null : <span className="badge badge--muted">Suspension over</span>}
        </p>
      </header>
      <dl className="appeal__facts">
        <dt>Account</dt>
        <dd>
          {appeal.user ? <Link to={`/admin/users/${appeal.user.uid}`}>{name}</Link> : 'Deleted'}
        </dd>
        <dt>Suspended for</dt>
        <dd>{suspension.reason ?? 'No reason recorded'}</dd>
        <dt>Until</dt>
        <dd>
          {suspension.until ? (
            <time dateTime={suspension.until}>{fullTimeLabel(suspension.until)}</time>
          ) : (
            'Indefinitely'
          )}
        </dd>
        <dt>Appealed</dt>
        <dd>
          <time dateTime={appeal.createdAt} title={fullTimeLabel(appeal.createdAt)}>
            {relativeTimeLabel(appeal.createdAt, now)}
          </time>
        </dd>
      </dl>
      <blockquote className="appeal__text">{appeal.text}</blockquote>
      {appeal.status !== 'pending' && appeal.decisionReason ? (
        <p className="report-group__meta">
          Decided{appeal.decidedBy ? ` by ${appeal.decidedBy}` : ''}
          {appeal.decidedAt ? `, ${fullTimeLabel(appeal.decidedAt)}` : ''}: {appeal.decisionReason}
        </p>
      ) : null}
      {appeal.status === 'pending' ? (
        <div
          className="report-group__actions"
          role="group"
          aria-label={`Decide the appeal by ${name}`}
        >
          <button
            type="button"
            className="button button--small button--primary"
            aria-haspopup="dialog"
            onClick={(event) => {
              opener.current = event.currentTarget;
              setDeciding('accept');
            }}
          >
            Accept
          </button>
          <button
            type="button"
            className="button button--small button--danger"
            aria-haspopup="dialog"
            onClick={(event) => {
              opener.current = event.currentTarget;
              setDeciding('reject');
            }}
          >
            Reject
          </button>
        </div>
      ) : null}
      {deciding ? (
        <ActionDialog
          reason="sent"
          title={deciding === 'accept' ? 'Accept the appeal' : 'Reject the appeal'}
          confirmLabel={deciding === 'accept' ? 'Accept and lift' : 'Reject'}
          busyLabel="Saving…"
          tone={deciding === 'accept' ? 'primary' : 'danger'}
          returnFocus={() => opener.current}
          onClose={() => {
            setDeciding(null);
          }}
          onConfirm={async (reason) => {
            await decide.mutateAsync({
              appealId: appeal.id,
              accept: deciding === 'accept',
              reason,
            });
            setDeciding(null);
          }}
        >
          <p>
            {deciding === 'accept'
              ? `The suspension of ${name} is lifted now. They are told, with your reason.`
              : `The suspension of ${name} stays. They are told, with your reason, and cannot appeal it again.`}
          </p>
        </ActionDialog>
      ) : null}
    </article>
  );
}
