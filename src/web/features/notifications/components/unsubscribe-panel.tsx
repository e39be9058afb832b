import { Link } from 'react-router';
import type { UnsubscribeState } from '@shared/schemas/notification.js';
import { StatusPanel } from '@web/components/ui/status-panel.js';
import { AlertIcon, CheckIcon, MailIcon } from '@web/components/ui/icons.js';
import { isApiError } from '@web/lib/api-client.js';
import { BusyLabel } from '@web/components/ui/busy-label.js';
import { useUnsubscribeState } from '../api/get-unsubscribe.js';
import { useUnsubscribe } from '../api/unsubscribe.js';
import { unsubscribeSubject } from './kind-labels.js';

/** What the unsubscribe page shows. */
export type UnsubscribeView =
  | { kind: 'loading' }
  | { kind: 'ready'; state: UnsubscribeState; busy: boolean; error: string | null }
  | { kind: 'done'; state: UnsubscribeState }
  | { kind: 'used'; state: UnsubscribeState | null }
  | { kind: 'invalid' }
  | { kind: 'error'; message: string };

interface ViewInput {
  state: UnsubscribeState | undefined;
  loadError: unknown;
  sent: UnsubscribeState | undefined;
  sending: boolean;
  sendError: unknown;
}

/**
 * The page's state from the link's reading and the button's request: a used link (read so, or a 409
 * from the button) says so; an unknown or malformed one (404, 400) is invalid; a failed read offers
 * Try again; a failed click keeps the button with the reason.
 */
export function unsubscribeView({
  state,
  loadError,
  sent,
  sending,
  sendError,
}: ViewInput): UnsubscribeView {
  if (sent) return { kind: 'done', state: sent };
  if (isApiError(sendError, 'conflict')) return { kind: 'used', state: state ?? null };
  if (isApiError(sendError, 'not_found')) return { kind: 'invalid' };
  if (state) {
    if (state.used) return { kind: 'used', state };
    const error = sendError instanceof Error ? sendError.message : null;
    return { kind: 'ready', state, busy: sending, error };
  }
  if (loadError) {
    if (isApiError(loadError) && (loadError.status === 404 || loadError.status === 400)) {
      return { kind: 'invalid' };
    }
    return {
      kind: 'error',
      message: loadError instanceof Error ? loadError.message : 'Something went wrong.',
    };
  }
  return { kind: 'loading' };
}

const settingsLink = <Link to="/settings/notifications">Change all your email settings</Link>;

/**
 * issue: notifications §2: a mail's one-click unsubscribe link, without signing in. Reading the link
 * changes nothing (mail scanners follow links); the button does it.
 */
export function UnsubscribePanel({ token }: { token: string }) {
  const query = useUnsubscribeState(token);
  const send = useUnsubscribe(token);
  const view = unsubscribeView({
    state: query.data,
    loadError: query.error,
    sent: send.data,
    sending: send.isPending,
    sendError: send.error,
  });

  switch (view.kind) {
    case 'loading':
      return (
        <p className="pending-line" role="status">
          <span className="spinner" aria-hidden="true" />
          Reading your link…
        </p>
      );
    case 'invalid':
      return (
        <StatusPanel title="This link doesn’t work" headingLevel={1} icon={<AlertIcon />}>
          <p>
            It may have been copied only in part. Use the link in the mail as it is, or{' '}
            {settingsLink} after signing in.
          </p>
        </StatusPanel>
      );
    case 'error':
      return (
        <div role="alert">
          <StatusPanel
            title="We couldn’t read this link"
            headingLevel={1}
            tone="error"
            icon={<AlertIcon />}
            actions={
              <button
                type="button"
                className="button button--primary"
                onClick={() => {
                  void query.refetch();
                }}
              >
                Try again
              </button>
            }
          >
            <p>{view.message}</p>
          </StatusPanel>
        </div>
      );
    case 'used':
      return (
        <StatusPanel title="This link was already used" headingLevel={1} icon={<CheckIcon />}>
          <p>
            {view.state
              ? `${capitalise(unsubscribeSubject(view.state.kind))} to ${view.state.email} are already off.`
              : 'Those emails are already off.'}{' '}
            {settingsLink}.
          </p>
        </StatusPanel>
      );
    case 'done':
      return (
        <div role="status">
          <StatusPanel title="You’re unsubscribed" headingLevel={1} icon={<CheckIcon />}>
            <p>You won’t get these emails any more. {settingsLink}.</p>
          </StatusPanel>
        </div>
      );
    case 'ready':
      return (
        <StatusPanel
          title="Unsubscribe"
          headingLevel={1}
          icon={<MailIcon />}
          actions={
            <button
              type="button"
              className="button button--primary"
              aria-disabled={view.busy || undefined}
              aria-busy={view.busy}
              onClick={() => {
                if (!view.busy) send.mutate();
              }}
            >
              <BusyLabel busy={view.busy} label="Unsubscribe" busyLabel="Unsubscribing…" />
            </button>
          }
        >
          <p className="unsubscribe__question">
            Stop {unsubscribeSubject(view.state.kind)} to {view.state.email}?
          </p>
          <p>You can turn them back on in your notification settings at any time.</p>
          {view.error ? (
            <p className="alert alert--error" role="alert">
              {view.error}
            </p>
          ) : null}
        </StatusPanel>
      );
  }
}

function capitalise(text: string): string {
  return text.charAt(0).toUpperCase() + text.slice(1);
}
