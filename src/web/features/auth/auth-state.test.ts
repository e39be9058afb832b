import { describe, expect, it } from 'vitest';
import { userDocumentSchema, type Me, type UserDocument } from '@shared/schemas/user.js';
import { makeMe, makeUserDocument } from '@web/test/user-fixtures.js';
import { deriveAuthState, isAccountChange, userDocumentOf } from './auth-state.js';

const doc: UserDocument = makeUserDocument();
const me: Me = makeMe();
const noSnapshot = { hasSnapshot: false, data: undefined };

describe('deriveAuthState (spec §4)', () => {
  it('starts loading', () => {
    expect(deriveAuthState({ sessionPending: true, me: null, profile: noSnapshot })).toEqual({
      isLoading: true,
      user: null,
      authenticated: false,
      me: null,
    });
  });

  it('stops loading when the session reports no account', () => {
    expect(deriveAuthState({ sessionPending: false, me: null, profile: noSnapshot })).toEqual({
      isLoading: false,
      user: null,
      authenticated: false,
      me: null,
    });
  });

  it('keeps loading for a signed-in account until its first profile snapshot', () => {
    const state = deriveAuthState({ sessionPending: false, me, profile: noSnapshot });
    expect(state.isLoading).toBe(true);
    expect(state.authenticated).toBe(false);
    expect(state.user).toBeNull();
  });

  it('is authenticated once the snapshot holds a document', () => {
    const state = deriveAuthState({
      sessionPending: false,
      me,
      profile: { hasSnapshot: true, data: doc },
    });
    expect(state).toEqual({ isLoading: false, user: doc, authenticated: true, me });
  });

  it('is not authenticated when the snapshot says the document does not exist', () => {
    const state = deriveAuthState({
      sessionPending: false,
      me,
      profile: { hasSnapshot: true, data: null },
    });
    expect(state.isLoading).toBe(false);
    expect(state.authenticated).toBe(false);
    expect(state.user).toBeNull();
  });
});

describe('isAccountChange', () => {
  it('is every move between accounts: signed out, another account, signed in', () => {
    expect(isAccountChange('a', null)).toBe(true);
    expect(isAccountChange('a', 'b')).toBe(true);
    expect(isAccountChange(null, 'a')).toBe(true);
  });

  it('is not the first answer, nor the same account (or nobody) again', () => {
    expect(isAccountChange(undefined, 'a')).toBe(false);
    expect(isAccountChange(undefined, null)).toBe(false);
    expect(isAccountChange('a', 'a')).toBe(false);
    expect(isAccountChange(null, null)).toBe(false);
  });
});

describe('userDocumentOf', () => {
  it('is the session account’s users/{uid} document: every public field, none of the private ones', () => {
    const me = makeMe({
      email: 'ada@example.com',
      usernameChangeAvailableAt: '2026-12-01T00:00:00.000Z',
      awaitingApproval: true,
    });
    const user = userDocumentOf(me);
    // Strict: a field the session adds to the account later must be added to the list of private ones.
    expect(userDocumentSchema.strict().parse(user)).toEqual(user);
    expect(Object.keys(user).sort()).toEqual(Object.keys(userDocumentSchema.shape).sort());
    expect(JSON.stringify(user)).not.toContain('ada@example.com');
  });
});
