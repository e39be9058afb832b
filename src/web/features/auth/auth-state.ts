import { createContext, use } from 'react';
import type { Me, UserDocument } from '@shared/schemas/user.js';

/** spec §4: the auth context values, plus the private Me (email) of the session for later screens. */
export interface AuthState {
  /** spec §4: true until the first profile snapshot arrives or the session reports nobody. */
  isLoading: boolean;
  /** spec §4: the live users/{uid} document of the signed-in account. */
  user: UserDocument | null;
  /** spec §4: true only when the user document is not null. */
  authenticated: boolean;
  /** The session's own view of the account (adds the email); null when signed out. */
  me: Me | null;
}

export interface AuthInputs {
  /** The session query has not answered yet. */
  sessionPending: boolean;
  /** The session's account, or null when it reports nobody (or could not be read). */
  me: Me | null;
  /** First-snapshot state of users/{me.uid}. */
  profile: { hasSnapshot: boolean; data: UserDocument | null | undefined };
}

/**
 * The public user document within the session's own view of the account: what users/{uid} carries, without
 * the private fields only the session has (the email, the username's cooldown, the suspension's details).
 */
export function userDocumentOf(me: Me): UserDocument {
  const {
    email: _email,
    usernameChangeAvailableAt: _usernameChangeAvailableAt,
    suspension: _suspension,
    awaitingApproval: _awaitingApproval,
    ...user
  } = me;
  return user;
}

const loading: AuthState = { isLoading: true, user: null, authenticated: false, me: null };

/** spec §4 as a pure function of the session and the profile subscription. */
export function deriveAuthState({ sessionPending, me, profile }: AuthInputs): AuthState {
  if (sessionPending) return loading;
  if (!me) return { isLoading: false, user: null, authenticated: false, me: null };
  // A new account (sign-in, switch in another tab) is loading again until its own first snapshot.
  if (!profile.hasSnapshot) return { ...loading, me };
  const user = profile.data ?? null;
  return { isLoading: false, user, authenticated: user !== null, me };
}

/**
 * Whether the settled session moved between accounts (A → signed out, A → B, signed out → A), which drops
 * everything cached for the previous viewer. `previous` is undefined until the first session answer.
 */
export function isAccountChange(previous: string | null | undefined, next: string | null): boolean {
  return previous !== undefined && previous !== next;
}

export const AuthContext = createContext<AuthState | null>(null);

/** Reads the auth context; only valid under the app's AuthProvider. */
export function useAuth(): AuthState {
  const state = use(AuthContext);
  if (!state) throw new Error('useAuth() needs the AuthProvider above it.');
  return state;
}
