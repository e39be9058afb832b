import { Link, useNavigate } from 'react-router';
import { profilePath } from '@shared/paths.js';
import { AlertIcon } from '@web/components/ui/icons.js';
import { LoadingScreen } from '@web/components/ui/loading-screen.js';
import { StatusPanel } from '@web/components/ui/status-panel.js';
import { SignUpForm } from '@web/features/auth/components/sign-up-form.js';
import { useInstance } from '@web/features/instance/api/get-instance.js';
import { InstanceRules } from '@web/features/instance/components/instance-rules.js';
import { usePageTitle } from '../hooks/use-page-title.js';

/** spec §2: /register and /signup (signed-out only). After signing up the user lands on /{username}. */
export function SignUpPage() {
  usePageTitle('Create your account');
  const instance = useInstance();
  const navigate = useNavigate();
  const mode = instance.data?.registrationMode;

  let content;
  if (instance.isPending) {
    content = <LoadingScreen />;
  } else if (mode === 'closed') {
    content = (
      <StatusPanel title="Registration is closed on this instance" icon={<AlertIcon />}>
        <p>
          New accounts can&apos;t be created here right now. If you already have one, you can still
          sign in.
        </p>
        {instance.data?.contactEmail ? (
          <p>
            Questions?{' '}
            <a href={`mailto:${instance.data.contactEmail}`}>Write to the administrators</a>.
          </p>
        ) : null}
      </StatusPanel>
    );
  } else {
    // If the instance could not be read, the form still works: the server enforces the mode.
    content = (
      <>
        {mode === 'approval' ? (
          <p className="notice" role="note">
            New accounts on {instance.data?.name ?? 'this instance'} are reviewed by the moderators.
            You can sign in and browse right away, and post once your account is approved; you will
            get an email either way.
          </p>
        ) : null}
        <InstanceRules />
        <SignUpForm
          signupQuestion={mode === 'approval' ? (instance.data?.signupQuestion ?? null) : null}
          onSignedUp={(user) => {
            void navigate(profilePath(user), { replace: true });
          }}
          onRegistrationClosed={() => {
            void instance.refetch();
          }}
        />
      </>
    );
  }

  return (
    <div className="page page--auth">
      <div className="card auth-card">
        <header className="auth-card__header">
          <h1>Create your account</h1>
          {mode === 'closed' ? null : (
            <p className="lede">Join {instance.data?.name ?? 'the community'} in a minute.</p>
          )}
        </header>
        {content}
        <p className="auth-card__switch">
          Already have an account? <Link to="/login">Sign in instead</Link>
        </p>
      </div>
    </div>
  );
}
