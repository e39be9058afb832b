import { Navigate, Outlet, useParams } from 'react-router';
import { LoadingScreen } from '@web/components/ui/loading-screen.js';
import { useAuth } from '@web/features/auth/auth-state.js';
import {
  decideActive,
  decideGuest,
  decideOwner,
  decideSettingsProfile,
  type GuardDecision,
} from '@web/features/auth/guards.js';
import { useUserByUsername } from '@web/features/users/api/get-user-by-username.js';

/** spec §2: while the auth state is loading, guards show the loading indicator. */
function GuardOutcome({ decision }: { decision: GuardDecision }) {
  if (decision === 'loading') return <LoadingScreen />;
  if (decision === 'allow') return <Outlet />;
  return <Navigate to={decision.redirect} replace />;
}

/** Sign-in and sign-up: signed-out visitors only. */
export function GuestOnly() {
  return <GuardOutcome decision={decideGuest(useAuth())} />;
}

/** Sign-out: active signed-in users only. */
export function ActiveOnly() {
  return <GuardOutcome decision={decideActive(useAuth())} />;
}

/** Profile editing: the active signed-in owner of the route's username only. */
export function OwnerOnly() {
  const auth = useAuth();
  const { username = '' } = useParams();
  const routeName = username.toLowerCase();
  // A username names one account, so the signed-in user's own name needs no lookup.
  const isOwnName = auth.user?.username?.toLowerCase() === routeName;
  const needsLookup =
    !auth.isLoading && auth.authenticated && auth.user?.active === true && !isOwnName;
  const owner = useUserByUsername(routeName, { enabled: needsLookup });
  let ownerUid: string | null | undefined;
  if (isOwnName) ownerUid = auth.user?.uid;
  else if (owner.isSuccess) ownerUid = owner.data.uid;
  else if (owner.isError) ownerUid = null;
  return <GuardOutcome decision={decideOwner(auth, ownerUid)} />;
}

/** spec §2: the Edit Profile fallback route for users without a username. */
export function SettingsProfileRedirect() {
  return <GuardOutcome decision={decideSettingsProfile(useAuth())} />;
}
