import type { MySuspension } from '@shared/schemas/report.js';
import { fullTimeLabel, relativeTimeLabel } from '@web/lib/relative-time.js';
import { useNow } from '@web/lib/use-now.js';
import { timeUntilLabel } from '../suspension-time.js';
import { AppealForm } from './appeal-form.js';

type Suspension = NonNullable<MySuspension['suspension']>;

function AppealState({ uid, suspension }: { uid: string; suspension: Suspension }) {
  const now = useNow();
  const appeal = suspension.appeal;
  if (appeal === null) {
    if (!suspension.mayAppeal) {
      return <p>This suspension can no longer be appealed.</p>;
    }
    return <AppealForm uid={uid} />;
  }
  return (
    <div className="appeal-state">
      {appeal.status === 'pending' ? (
        <div className="alert alert--success" role="status">
          <p>
            <strong>Appeal sent</strong>{' '}
            <time dateTime={appeal.createdAt} title={fullTimeLabel(appeal.createdAt)}>
              {relativeTimeLabel(appeal.createdAt, now)}
            </time>
            . The moderators will decide, and you will be notified.
          </p>
        </div>
      ) : (
        <div className="alert alert--info">
          <p>
            <strong>
              {appeal.status === 'accepted'
                ? 'Your appeal was accepted.'
                : 'Your appeal was rejected.'}
            </strong>
            {appeal.decidedAt ? (
              <>
                {' '}
                <time dateTime={appeal.decidedAt}>{fullTimeLabel(appeal.decidedAt)}</time>
              </>
            ) : null}
          </p>
          {appeal.decisionReason ? <p>Reason: {appeal.decisionReason}</p> : null}
        </div>
      )}
      <h3 className="appeal-state__title">What you wrote</h3>
      <p className="appeal-state__text">{appeal.text}</p>
    </div>
  );
}

/**
 * A suspended account's own view of it (issue: moderation and administration §5): why, since when, until
 * when (or indefinitely), and its one appeal with the outcome once decided.
 */
export function SuspensionDetails({ uid, suspension }: { uid: string; suspension: Suspension }) {
  const now = useNow();
  return (
    <>
      <section className="card settings-section suspension" aria-labelledby="suspension-why">
        <h2 id="suspension-why" className="settings-section__title">
          Your account is suspended
        </h2>
        <dl className="suspension__facts">
          <dt>Reason</dt>
          <dd className="suspension__reason">{suspension.reason}</dd>
          <dt>Since</dt>
          <dd>
            <time dateTime={suspension.since}>{fullTimeLabel(suspension.since)}</time>
          </dd>
          <dt>Until</dt>
          <dd>
            {suspension.until ? (
              <>
                <time dateTime={suspension.until}>{fullTimeLabel(suspension.until)}</time> (
                {timeUntilLabel(suspension.until, now)})
              </>
            ) : (
              'Indefinitely, until the moderators lift it'
            )}
          </dd>
        </dl>
        <p>
          While suspended you can sign in, read, and manage your account, but you can’t post,
          comment, like, follow or report.
        </p>
      </section>
      <section className="card settings-section" aria-labelledby="suspension-appeal">
        <h2 id="suspension-appeal" className="settings-section__title">
          Appeal
        </h2>
        <AppealState uid={uid} suspension={suspension} />
      </section>
    </>
  );
}
