import { useRef, useState } from 'react';
import type { SessionInfo } from '@shared/schemas/account.js';
import { FormStatus } from '@web/components/ui/form-status.js';
import { isApiError } from '@web/lib/api-client.js';
import { useSessions } from '../api/get-sessions.js';
import { useRevokeSession } from '../api/revoke-session.js';
import { deviceLabel, sessionActivityLabel } from '../session-labels.js';
import { fullTimeLabel } from '@web/lib/relative-time.js';

/** This device first, then the most recently active. */
function ordered(sessions: readonly SessionInfo[]): SessionInfo[] {
  return [...sessions].sort(
    (a, b) => Number(b.current) - Number(a.current) || b.lastSeenAt.localeCompare(a.lastSeenAt),
  );
}

function SessionsSkeleton() {
  return (
    <div className="session-list" role="status" aria-label="Loading your sessions">
      {[0, 1].map((row) => (
        <div key={row} className="session session--skeleton">
          <span className="skeleton skeleton--line skeleton--medium" />
          <span className="skeleton skeleton--line skeleton--short" />
        </div>
      ))}
    </div>
  );
}

/** Every device signed in to the account, each but this one with a Revoke button. */
export function SessionsSection() {
  const sessions = useSessions();
  const revoke = useRevokeSession();
  const [announcement, setAnnouncement] = useState<string | null>(null);
  const [revokeError, setRevokeError] = useState<string | null>(null);
  const heading = useRef<HTMLHeadingElement>(null);

  const onRevoke = (session: SessionInfo) => {
    setAnnouncement(null);
    setRevokeError(null);
    const name = deviceLabel(session);
    revoke.mutate(session.id, {
      onSuccess: () => {
        setAnnouncement(`${name} was signed out.`);
        // The row and its button are gone: focus goes to the list's heading, not to the page top.
        heading.current?.focus();
      },
      onError: (error) => {
        if (isApiError(error, 'not_found')) {
          setAnnouncement(`${name} had already signed out.`);
          heading.current?.focus();
          return;
        }
        setRevokeError(`${name} could not be signed out. ${error.message}`);
      },
    });
  };

  let body;
  if (sessions.isPending) {
    body = <SessionsSkeleton />;
  } else if (sessions.isError) {
    body = (
      <div className="alert alert--error" role="alert">
        <p>We couldn&apos;t load your sessions. {sessions.error.message}</p>
        <button
          type="button"
          className="button button--secondary button--small"
          onClick={() => {
            void sessions.refetch();
          }}
        >
          Try again
        </button>
      </div>
    );
  } else {
    const now = sessions.dataUpdatedAt;
    body = (
      <ul className="session-list">
        {ordered(sessions.data.sessions).map((session) => {
          const name = deviceLabel(session);
          const busy = revoke.isPending && revoke.variables === session.id;
          return (
            <li key={session.id} className="session">
              <div className="session__details">
                <p className="session__device">
                  {name}
                  {session.current ? <span className="badge">This device</span> : null}
                </p>
                <p className="session__meta">
                  <span>{session.ipAddress ?? 'Unknown address'}</span>
                  {session.current ? (
                    <span>{sessionActivityLabel(session, now)}</span>
                  ) : (
                    <time dateTime={session.lastSeenAt} title={fullTimeLabel(session.lastSeenAt)}>
                      {sessionActivityLabel(session, now)}
                    </time>
                  )}
                </p>
              </div>
              {session.current ? null : (
                <button
                  type="button"
                  className="button button--secondary button--small"
                  disabled={busy}
                  aria-busy={busy}
                  onClick={() => {
                    onRevoke(session);
                  }}
                >
                  {busy ? 'Revoking…' : 'Revoke'}
                  <span className="visually-hidden">
                    {' '}
                    {name}
                    {session.ipAddress ? `, ${session.ipAddress}` : ''}
                  </span>
                </button>
              )}
            </li>
          );
        })}
      </ul>
    );
  }

  return (
    <section className="card settings-section" aria-labelledby="settings-sessions">
      <h2 id="settings-sessions" className="settings-section__title" ref={heading} tabIndex={-1}>
        Sessions
      </h2>
      <p className="settings-section__intro">
        Browsers and devices signed in to your account. Revoke any you don&apos;t recognise, then
        change your password.
      </p>
      {body}
      <FormStatus
        autoClear={{
          notice: announcement,
          clear: () => {
            setAnnouncement(null);
          },
        }}
      >
        {announcement ? <p>{announcement}</p> : null}
      </FormStatus>
      {revokeError ? (
        <p className="alert alert--error" role="alert">
          {revokeError}
        </p>
      ) : null}
    </section>
  );
}
