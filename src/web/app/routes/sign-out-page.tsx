import { useCallback, useEffect, useRef } from 'react';
import { useNavigate } from 'react-router';
import { LoadingScreen } from '@web/components/ui/loading-screen.js';
import { LoadErrorPanel } from '@web/components/ui/load-error-panel.js';
import { useSignOut } from '@web/features/auth/api/sign-out.js';
import { usePageTitle } from '../hooks/use-page-title.js';

/** spec §2: /logout and /signout sign the (active) user out and land on /feed. */
export function SignOutPage() {
  usePageTitle('Signing out');
  const signOut = useSignOut();
  const navigate = useNavigate();
  const { mutate } = signOut;
  const started = useRef(false);

  const run = useCallback(() => {
    mutate(undefined, {
      onSuccess: () => {
        void navigate('/feed', { replace: true });
      },
    });
  }, [mutate, navigate]);

  useEffect(() => {
    // Once per visit, also under StrictMode's double effects.
    if (started.current) return;
    started.current = true;
    run();
  }, [run]);

  if (signOut.isError) {
    return (
      <div className="page page--narrow">
        <LoadErrorPanel title="We couldn't sign you out" error={signOut.error} onRetry={run} />
      </div>
    );
  }
  return (
    <div className="page page--narrow">
      <h1 className="visually-hidden">Signing out</h1>
      <LoadingScreen />
    </div>
  );
}
