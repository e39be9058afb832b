import { editProfilePath, profilePath } from '@shared/paths.js';
import type { AuthState } from './auth-state.js';

/** What a guarded route does: wait, render, or send the visitor elsewhere. */
export type GuardDecision = 'loading' | 'allow' | { redirect: string };

export type GuardAuth = Pick<AuthState, 'isLoading' | 'user' | 'authenticated'>;

/** spec §2: sign-in and sign-up are for signed-out visitors; a signed-in user goes to /{username}. */
export function decideGuest(auth: GuardAuth): GuardDecision {
  if (auth.isLoading) return 'loading';
  if (auth.authenticated && auth.user) return { redirect: profilePath(auth.user) };
  return 'allow';
}

/** spec §2, §4: sign-out is for signed-in users with active true; others are sent to /feed. */
export function decideActive(auth: GuardAuth): GuardDecision {
  if (auth.isLoading) return 'loading';
  if (auth.authenticated && auth.user?.active === true) return 'allow';
  return { redirect: '/feed' };
}

/**
 * spec §2, §5: profile editing is for an active signed-in user whose id equals the route's owner id;
 * anyone else is sent to /. `ownerUid` is undefined while the route's username is being resolved
 * and null when it names nobody.
 */
export function decideOwner(auth: GuardAuth, ownerUid: string | null | undefined): GuardDecision {
  if (auth.isLoading) return 'loading';
  if (!auth.authenticated || auth.user?.active !== true) return { redirect: '/' };
  if (ownerUid === undefined) return 'loading';
  if (ownerUid !== auth.user.uid) return { redirect: '/' };
  return 'allow';
}

/** spec §2 (Edit Profile fallback): /settings/profile leads a user with a username to their edit page, else to /. */
export function decideSettingsProfile(auth: GuardAuth): GuardDecision {
  if (auth.isLoading) return 'loading';
  if (auth.authenticated && auth.user?.username) return { redirect: editProfilePath(auth.user) };
  return { redirect: '/' };
}

/**
 * Account settings: any signed-in user, active or not (ADR 0005: password, sessions and deletion
 * are about their own safety); visitors are sent to /login.
 */
export function decideSignedIn(auth: GuardAuth): GuardDecision {
  if (auth.isLoading) return 'loading';
  if (auth.authenticated && auth.user) return 'allow';
  return { redirect: '/login' };
}
