import { useCallback, useEffect, useState } from 'react';
import { useQueryClient } from '@tanstack/react-query';
import { Link, Navigate, useLocation, useNavigate, useSearchParams } from 'react-router';
import { editProfilePath } from '@shared/paths.js';
import { isStaff } from '@shared/roles.js';
import { LoadingScreen } from '@web/components/ui/loading-screen.js';
import { accountKeys } from '@web/features/account/account-keys.js';
import { DeleteAccountSection } from '@web/features/account/components/delete-account-section.js';
import { EmailConfirmation } from '@web/features/account/components/email-confirmation.js';
import { EmailSection } from '@web/features/account/components/email-section.js';
import { PasswordSection } from '@web/features/account/components/password-section.js';
import { SessionsSection } from '@web/features/account/components/sessions-section.js';
import { useAuth } from '@web/features/auth/auth-state.js';
import { decideSignedIn } from '@web/features/auth/guards.js';
import { applySessionChange, refreshSession } from '@web/features/auth/session-sync.js';
import { usePageTitle } from '../hooks/use-page-title.js';
import { withNotice } from '../layout/route-notice.js';

const tokenParam = 'emailToken';

/**
 * /settings/account: email, password, sessions and deletion, for signed-in users (others go to
 * /login). A confirmation link (?emailToken=) is followed first, signed in or not, and the one-time
 * token is taken out of the address at once.
 */
export function AccountSettingsPage() {
  const auth = useAuth();
  const queryClient = useQueryClient();
  const navigate = useNavigate();
  const location = useLocation();
  const [params] = useSearchParams();
  const urlToken = params.get(tokenParam);
  const [emailToken, setEmailToken] = useState(urlToken);
  if (urlToken !== null && urlToken !== emailToken) setEmailToken(urlToken);
  // Set while the account is being deleted: it may be gone (and the guard say "signed out")
  // before the answer arrives, and the page must not bounce to /login meanwhile.
  const [leaving, setLeaving] = useState(false);
  const decision = decideSignedIn(auth);
  const signedIn = decision === 'allow';
  usePageTitle(signedIn || emailToken === null ? 'Account settings' : 'Confirm your email address');

  useEffect(() => {
    if (urlToken === null) return;
    // The token is a one-time secret: keep it out of the address bar, the history and screenshots.
    const rest = new URLSearchParams(location.search);
    rest.delete(tokenParam);
    const search = rest.toString();
    void navigate(
      { pathname: location.pathname, search: search ? `?${search}` : '', hash: location.hash },
      { replace: true },
    );
  }, [urlToken, location.pathname, location.search, location.hash, navigate]);

  const onEmailConfirmed = useCallback(() => {
    // The new address is part of Me; other tabs of this browser re-read it too.
    applySessionChange(queryClient);
  }, [queryClient]);

  const onDeleted = useCallback(async () => {
    await navigate('/feed', { replace: true, state: withNotice('Your account was deleted.') });
    queryClient.removeQueries({ queryKey: accountKeys.all });
    // As after signing out: this tab and the others learn that nobody is signed in any more.
    applySessionChange(queryClient, null);
  }, [navigate, queryClient]);

  if (emailToken === null && !leaving) {
    if (decision === 'loading') return <LoadingScreen />;
    if (!signedIn) return <Navigate to={decision.redirect} replace />;
  }

  let body;
  if (leaving && !signedIn) {
    body = (
      <p className="pending-line" role="status">
        <span className="spinner" aria-hidden="true" />
        Deleting your account…
      </p>
    );
  } else if (decision === 'loading') {
    body = <LoadingScreen />;
  } else if (signedIn && auth.user && auth.me) {
    const { user, me } = auth;
    const accountName = user.username ?? me.email;
    body = (
      <>
        <EmailSection currentEmail={me.email} accountName={accountName} active={user.active} />
        <PasswordSection
          accountName={accountName}
          onChanged={() => {
            refreshSession(queryClient);
          }}
        />
        <SessionsSection />
        <DeleteAccountSection
          username={user.username}
          accountName={accountName}
          onDeleting={() => {
            setLeaving(true);
          }}
          onDeleteFailed={() => {
            setLeaving(false);
          }}
          onDeleted={() => {
            void onDeleted();
          }}
        />
      </>
    );
  } else {
    body = null;
  }

  return (
    <div className="page page--narrow settings-page">
      <header className="page__header">
        <h1>
          {signedIn || emailToken === null ? 'Account settings' : 'Confirm your email address'}
        </h1>
        {signedIn && auth.user ? (
          <p className="lede">
            How you sign in{auth.user.username ? ` to @${auth.user.username}` : ''}, and where you
            are signed in.
            {auth.user.active && auth.user.username ? (
              <>
                {' '}
                Your public details are on <Link to={editProfilePath(auth.user)}>Edit profile</Link>
                .
              </>
            ) : null}{' '}
            What reaches you, in the app and by email, is in{' '}
            <Link to="/settings/notifications">Notification settings</Link>; whom you block or mute,
            in <Link to="/settings/privacy">Privacy settings</Link>.
            {isStaff(auth.user.role) && auth.user.active && !auth.user.suspended ? (
              <>
                {' '}
                Reports, people and the instance are run from the{' '}
                <Link to="/admin">moderation console</Link>.
              </>
            ) : null}
          </p>
        ) : null}
      </header>
      {emailToken !== null ? (
        <EmailConfirmation
          key={emailToken}
          token={emailToken}
          signedIn={signedIn}
          onConfirmed={onEmailConfirmed}
        />
      ) : null}
      {body}
    </div>
  );
}
