import { Link, useNavigate } from 'react-router';
import { profilePath } from '@shared/paths.js';
import { SignInForm } from '@web/features/auth/components/sign-in-form.js';
import { useInstanceName } from '@web/features/instance/api/get-instance.js';
import { usePageTitle } from '../hooks/use-page-title.js';

/** spec §2: /signin and /login (signed-out only). After signing in the user lands on /{username}. */
export function SignInPage() {
  usePageTitle('Sign in');
  const instanceName = useInstanceName();
  const navigate = useNavigate();
  return (
    <div className="page page--auth">
      <div className="card auth-card">
        <header className="auth-card__header">
          <h1>Sign in</h1>
          <p className="lede">Welcome back to {instanceName}.</p>
        </header>
        <SignInForm
          onSignedIn={(user) => {
            void navigate(profilePath(user), { replace: true });
          }}
        />
        <p className="auth-card__switch">
          New here? <Link to="/register">Create an account</Link>
        </p>
      </div>
    </div>
  );
}
