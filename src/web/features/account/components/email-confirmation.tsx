import { useCallback, useEffect, useRef } from 'react';
import { Link } from 'react-router';
import type { Me } from '@shared/schemas/user.js';
import { isApiError } from '@web/lib/api-client.js';
import { useConfirmEmailChange } from '../api/confirm-email-change.js';

interface EmailConfirmationProps {
  token: string;
  /** Whether someone is signed in here (the link also works signed out). */
  signedIn: boolean;
  onConfirmed: (user: Me) => void;
}

/** Follows an email-change link: confirms it once, then says what the address is now. */
export function EmailConfirmation({ token, signedIn, onConfirmed }: EmailConfirmationProps) {
  const confirm = useConfirmEmailChange();
  const { mutate } = confirm;
  const started = useRef(false);

  const run = useCallback(() => {
    mutate(token, {
      onSuccess: ({ user }) => {
        onConfirmed(user);
      },
    });
  }, [mutate, onConfirmed, token]);

  useEffect(() => {
    // Once per link, also under StrictMode's double effects: the token works only once.
    if (started.current) return;
    started.current = true;
    run();
  }, [run]);

  if (confirm.isError) {
    const expired = isApiError(confirm.error, 'invalid_token');
    return (
      <div role="alert" className="alert alert--error email-confirmation">
        <p>
          <strong>
            {expired
              ? 'This confirmation link no longer works.'
              : 'We couldn’t confirm your email.'}
          </strong>{' '}
          {confirm.error.message}
        </p>
        {expired ? null : (
          <button type="button" className="button button--secondary button--small" onClick={run}>
            Try again
          </button>
        )}
        {expired && !signedIn ? (
          <p>
            <Link to="/login">Sign in</Link> to ask for a new link in your account settings.
          </p>
        ) : null}
      </div>
    );
  }
  // One live region from "confirming" to "done", so the outcome is announced when it replaces the wait.
  return (
    <div role="status" className="email-confirmation">
      {confirm.isSuccess ? (
        <div className="alert alert--success">
          <p>
            Your email address is now <strong>{confirm.data.user.email}</strong>.
          </p>
          {signedIn ? null : (
            <p>
              <Link to="/login">Sign in</Link> with it from now on.
            </p>
          )}
        </div>
      ) : (
        <p className="pending-line">
          <span className="spinner" aria-hidden="true" />
          Confirming your new email address…
        </p>
      )}
    </div>
  );
}
