import { describe, expect, it } from 'vitest';
import type { UserDocument } from '@shared/schemas/user.js';
import {
  decideActive,
  decideGuest,
  decideOwner,
  decideSettingsProfile,
  decideSignedIn,
  type GuardAuth,
} from './guards.js';
import { makeUserDocument } from '@web/test/user-fixtures.js';

function userDoc(overrides: Partial<UserDocument> = {}): UserDocument {
  return makeUserDocument({ uid: 'uid_ada', ...overrides });
}

const loading: GuardAuth = { isLoading: true, user: null, authenticated: false };
const signedOut: GuardAuth = { isLoading: false, user: null, authenticated: false };
const inactive: GuardAuth = {
  isLoading: false,
  user: userDoc({ active: false }),
  authenticated: true,
};
const active: GuardAuth = { isLoading: false, user: userDoc(), authenticated: true };

describe('decideGuest (spec §2: sign-in and sign-up)', () => {
  it('waits while the auth state loads', () => {
    expect(decideGuest(loading)).toBe('loading');
  });
  it('lets a signed-out visitor in', () => {
    expect(decideGuest(signedOut)).toBe('allow');
  });
  it('sends a signed-in inactive user to /{username}', () => {
    expect(decideGuest(inactive)).toEqual({ redirect: '/ada' });
  });
  it('sends a signed-in active user to /{username}', () => {
    expect(decideGuest(active)).toEqual({ redirect: '/ada' });
  });
  it('uses the lowercase username', () => {
    const auth: GuardAuth = { ...active, user: userDoc({ username: 'AdaL' }) };
    expect(decideGuest(auth)).toEqual({ redirect: '/adal' });
  });
  it('sends a user without a username to /user/{uid}', () => {
    const auth: GuardAuth = { ...active, user: userDoc({ username: null }) };
    expect(decideGuest(auth)).toEqual({ redirect: '/user/uid_ada' });
  });
});

describe('decideActive (spec §2: sign-out)', () => {
  it('waits while the auth state loads', () => {
    expect(decideActive(loading)).toBe('loading');
  });
  it('sends a signed-out visitor to /feed', () => {
    expect(decideActive(signedOut)).toEqual({ redirect: '/feed' });
  });
  it('sends a signed-in inactive user to /feed', () => {
    expect(decideActive(inactive)).toEqual({ redirect: '/feed' });
  });
  it('lets a signed-in active user in', () => {
    expect(decideActive(active)).toBe('allow');
  });
});

describe('decideOwner (spec §2, §5: edit-profile)', () => {
  it('waits while the auth state loads', () => {
    expect(decideOwner(loading, 'uid_ada')).toBe('loading');
  });
  it('sends a signed-out visitor to /', () => {
    expect(decideOwner(signedOut, 'uid_ada')).toEqual({ redirect: '/' });
  });
  it('sends a signed-in inactive user to /, even on their own page', () => {
    expect(decideOwner(inactive, 'uid_ada')).toEqual({ redirect: '/' });
  });
  it('lets an active user edit their own profile', () => {
    expect(decideOwner(active, 'uid_ada')).toBe('allow');
  });
  it("sends an active user away from another user's edit page", () => {
    expect(decideOwner(active, 'uid_grace')).toEqual({ redirect: '/' });
  });
  it('waits while the route username is being resolved', () => {
    expect(decideOwner(active, undefined)).toBe('loading');
  });
  it('sends the user to / when the route username names nobody', () => {
    expect(decideOwner(active, null)).toEqual({ redirect: '/' });
  });
});

describe('decideSettingsProfile (spec §2: the Edit Profile fallback)', () => {
  it('waits while the auth state loads', () => {
    expect(decideSettingsProfile(loading)).toBe('loading');
  });
  it('sends a signed-out visitor to /', () => {
    expect(decideSettingsProfile(signedOut)).toEqual({ redirect: '/' });
  });
  it('sends a user with a username to their edit page', () => {
    expect(decideSettingsProfile(active)).toEqual({ redirect: '/ada/edit-profile' });
  });
  it('sends a user without a username to / (their edit link would loop)', () => {
    const auth: GuardAuth = { ...active, user: userDoc({ username: null }) };
    expect(decideSettingsProfile(auth)).toEqual({ redirect: '/' });
  });
});

describe('decideSignedIn (account settings)', () => {
  it('waits while the auth state loads', () => {
    expect(decideSignedIn(loading)).toBe('loading');
  });
  it('sends a signed-out visitor to /login', () => {
    expect(decideSignedIn(signedOut)).toEqual({ redirect: '/login' });
  });
  it('lets an inactive user in (password, sessions and deletion stay theirs)', () => {
    expect(decideSignedIn(inactive)).toBe('allow');
  });
  it('lets an active user in', () => {
    expect(decideSignedIn(active)).toBe('allow');
  });
});
