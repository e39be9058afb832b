import type { Me, UserDocument } from '@shared/schemas/user.js';

/** A complete, valid user document for unit tests; override only what a test is about. */
export function makeUserDocument(overrides: Partial<UserDocument> = {}): UserDocument {
  return {
    uid: 'u1',
    username: 'ada',
    firstName: 'Ada',
    lastName: 'Lovelace',
    displayName: null,
    avatar: null,
    avatarThumb: null,
    avatarAlt: null,
    cover: null,
    coverAlt: null,
    bio: null,
    website: null,
    role: 'user',
    active: true,
    createdAt: '2025-01-02T03:04:05.000Z',
    counts: { posts: 0, followers: 0, following: 0 },
    ...overrides,
  };
}

/** The signed-in view of makeUserDocument(). */
export function makeMe(overrides: Partial<Me> = {}): Me {
  return {
    ...makeUserDocument(overrides),
    email: 'ada@example.test',
    usernameChangeAvailableAt: null,
    ...overrides,
  };
}
