import { describe, expect, it } from 'vitest';
import {
  defaultImages,
  editProfilePath,
  isReservedUsername,
  profilePath,
  reservedUsernames,
} from './paths.js';
import { usernameSchema } from './schemas/user.js';

describe('profilePath (spec §2, View Profile)', () => {
  it('goes to /{username} in lowercase', () => {
    expect(profilePath({ uid: 'u1', username: 'Ada_Lovelace' })).toBe('/ada_lovelace');
  });

  it('goes to /user/{uid} when the user has no username', () => {
    expect(profilePath({ uid: 'u1', username: null })).toBe('/user/u1');
    expect(profilePath({ uid: 'u1', username: '' })).toBe('/user/u1');
  });

  it('encodes the uid so it stays one path segment', () => {
    expect(profilePath({ uid: 'a/b c', username: null })).toBe('/user/a%2Fb%20c');
  });

  it('goes to /login when there is no user', () => {
    expect(profilePath(null)).toBe('/login');
    expect(profilePath(undefined)).toBe('/login');
  });
});

describe('editProfilePath (spec §2, Edit Profile)', () => {
  it('goes to /{username}/edit-profile', () => {
    expect(editProfilePath({ uid: 'u1', username: 'Ada' })).toBe('/ada/edit-profile');
  });

  it('goes to /settings/profile without a username or a user', () => {
    expect(editProfilePath({ uid: 'u1', username: null })).toBe('/settings/profile');
    expect(editProfilePath(null)).toBe('/settings/profile');
    expect(editProfilePath(undefined)).toBe('/settings/profile');
  });
});

describe('reserved usernames', () => {
  // spec §2: every first path segment of the route table, plus the words of the menu's fallbacks.
  const specRouteWords = [
    'feed',
    'signin',
    'login',
    'register',
    'signup',
    'logout',
    'signout',
    'post',
    'ym',
    'user',
    'settings',
    'reset-password',
    'tos',
    'privacy',
    'edit-profile',
  ];

  it.each(specRouteWords)('no one can take the route word %s as a username', (word) => {
    expect(usernameSchema.safeParse(word).success).toBe(false);
    expect(usernameSchema.safeParse(word.toUpperCase()).success).toBe(false);
    // Hyphens are not allowed in usernames; the underscore spelling is reserved as well.
    expect(isReservedUsername(word.replaceAll('-', '_'))).toBe(true);
  });

  it.each(['admin', 'api', 'img', 'media', 'assets'])(
    'reserves the infrastructure word %s (DESIGN.md)',
    (word) => {
      expect(isReservedUsername(word)).toBe(true);
    },
  );

  it('checks case-insensitively', () => {
    expect(isReservedUsername('Admin')).toBe(true);
    expect(isReservedUsername('FEED')).toBe(true);
  });

  it('leaves ordinary names free', () => {
    expect(isReservedUsername('ada_lovelace')).toBe(false);
    expect(isReservedUsername('feeder')).toBe(false);
  });

  it('holds only words a username could be, so each entry actually blocks one', () => {
    for (const word of reservedUsernames) expect(word).toMatch(/^[a-z0-9_]{2,30}$/);
  });
});

describe('default images (spec §3)', () => {
  it('uses the paths of the spec', () => {
    expect(defaultImages.avatar).toBe('/img/default-avatar.png');
    expect(defaultImages.avatarFallback).toBe('/default-avatar.png');
    expect(defaultImages.cover).toBe('/img/default-cover-image.png');
  });
});
