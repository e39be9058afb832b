import { useNavigate } from 'react-router';
import { useSignOut } from '@web/features/auth/api/sign-out.js';

/**
 * Shown to signed-in users whose account is not active: waiting for approval, or deactivated later. spec §2 keeps /signout for active
 * users only, so this banner offers the sign-out call itself: nobody is stuck signed in.
 */
export function InactiveBanner({ awaitingApproval }: { awaitingApproval: boolean }) {
  const signOut = useSignOut();
  const navigate = useNavigate();
  return (
    <div className="banner" role="note">
      <p className="banner__text">
        {awaitingApproval
          ? 'Your sign-up is awaiting approval by the moderators. You can browse, and you will get an email once they have decided.'
          : 'Your account has been deactivated by the moderators. You can browse, but you can’t post or change anything.'}
      </p>
      <button
        type="button"
        className="button button--ghost button--small"
        disabled={signOut.isPending}
        aria-busy={signOut.isPending}
        onClick={() => {
          signOut.mutate(undefined, {
            onSuccess: () => {
              void navigate('/feed', { replace: true });
            },
          });
        }}
      >
        {signOut.isPending ? 'Signing out…' : 'Sign out'}
      </button>
      {signOut.isError ? (
        <p className="banner__error" role="alert">
          {signOut.error.message}
        </p>
      ) : null}
    </div>
  );
}
