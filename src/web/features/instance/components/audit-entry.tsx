import type { AuditEntry, PublicLogEntry } from '@shared/schemas/audit.js';
import { fullTimeLabel, relativeTimeLabel } from '@web/lib/relative-time.js';
import { describeAction, moderationActionLabels } from '../moderation-action-labels.js';

function When({ iso, now }: { iso: string; now: number }) {
  return (
    <time className="audit-entry__time" dateTime={iso} title={fullTimeLabel(iso)}>
      {relativeTimeLabel(iso, now)}
    </time>
  );
}

function detailValue(value: unknown): string {
  if (typeof value === 'string') return value;
  return JSON.stringify(value);
}

/** One entry of the audit log, as a sentence with what else was recorded under it. */
export function AuditEntryItem({ entry, now }: { entry: AuditEntry; now: number }) {
  const phrase = describeAction(entry.action, {
    targetUsername: entry.target?.username ?? null,
    hasTarget: entry.target !== null,
    subjectKind: entry.subject?.kind ?? null,
    details: entry.details,
  });
  const details = entry.details ? Object.entries(entry.details) : [];
  return (
    <li className="audit-entry">
      <div className="audit-entry__head">
        <p className="audit-entry__sentence">
          <strong>{entry.actor.name === 'operator' ? 'The operator' : entry.actor.name}</strong>{' '}
          {phrase}
        </p>
        <span className="badge">{moderationActionLabels[entry.action]}</span>
        {entry.public ? <span className="badge badge--public">Public</span> : null}
        <When iso={entry.createdAt} now={now} />
      </div>
      {entry.reason ? (
        <p className="audit-entry__reason">
          <span className="audit-entry__term">Reason:</span> {entry.reason}
        </p>
      ) : null}
      {entry.subject?.excerpt ? (
        <blockquote className="audit-entry__excerpt">{entry.subject.excerpt}</blockquote>
      ) : null}
      {entry.note ? (
        <div className="audit-entry__note">
          <p className="audit-entry__note-label">Moderators only</p>
          <p>{entry.note}</p>
        </div>
      ) : null}
      {details.length > 0 ? (
        <details className="audit-entry__details">
          <summary>Details</summary>
          <dl>
            {details.map(([key, value]) => (
              <div key={key} className="audit-entry__detail">
                <dt>{key}</dt>
                <dd>{detailValue(value)}</dd>
              </div>
            ))}
          </dl>
        </details>
      ) : null}
    </li>
  );
}

/** One entry of the public moderation log: never who acted, notes, details or removed words. */
export function PublicLogEntryItem({ entry, now }: { entry: PublicLogEntry; now: number }) {
  const phrase = describeAction(entry.action, {
    targetUsername: entry.targetUsername,
    hasTarget: entry.targetUsername !== null,
    subjectKind: entry.subjectKind,
    details: null,
  });
  return (
    <li className="audit-entry">
      <div className="audit-entry__head">
        <p className="audit-entry__sentence">Moderators {phrase}</p>
        <When iso={entry.createdAt} now={now} />
      </div>
      {entry.reason ? (
        <p className="audit-entry__reason">
          <span className="audit-entry__term">Reason:</span> {entry.reason}
        </p>
      ) : null}
    </li>
  );
}
