import { useEffect, useRef, useState } from 'react';
import { Link, useSearchParams } from 'react-router';
import { RequestResetForm } from '@web/features/auth/components/request-reset-form.js';
import { ResetPasswordForm } from '@web/features/auth/components/reset-password-form.js';
import { usePageTitle } from '../hooks/use-page-title.js';

/** spec §2: /reset-password, open. Without ?token= it asks for a link; with one it sets the password. */
export function ResetPasswordPage() {
  const [params] = useSearchParams();
  const token = params.get('token');
  const [changed, setChanged] = useState(false);
  const heading = useRef<HTMLHeadingElement>(null);
  const title = changed ? 'Password changed' : 'Choose a new password';
  usePageTitle(token === null ? 'Reset your password' : title);

  // The form and its button are gone: focus goes to the heading that now says what happened.
  useEffect(() => {
    if (changed) heading.current?.focus();
  }, [changed]);

  return (
    <div className="page page--auth">
      <div className="card auth-card">
        {token === null ? (
          <>
            <header className="auth-card__header">
              <h1>Reset your password</h1>
              <p className="lede">
                Enter the email address of your account and we&apos;ll send you a link to choose a
                new password.
              </p>
            </header>
            <RequestResetForm />
          </>
        ) : (
          <>
            <header className="auth-card__header">
              <h1 ref={heading} tabIndex={-1}>
                {title}
              </h1>
            </header>
            <ResetPasswordForm
              key={token}
              token={token}
              onDone={() => {
                setChanged(true);
              }}
            />
          </>
        )}
        {changed ? null : (
          <p className="auth-card__switch">
            Remembered it? <Link to="/login">Back to sign in</Link>
          </p>
        )}
      </div>
    </div>
  );
}
