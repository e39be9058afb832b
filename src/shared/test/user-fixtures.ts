import type { Me, UserDocument } from '../schemas/user.js';
import { makeAuthor } from './post-fixtures.js';

/** A complete, valid user document of makeAuthor()'s person; override only what a test is about. */
export function makeUserDocument(overrides: Partial<UserDocument> = {}): UserDocument {
  return {
    ...makeAuthor(),
    avatar: null,
    avatarAlt: null,
    cover: null,
    coverSmall: null,
    coverAlt: null,
    bio: null,
    bioMentions: [],
    website: null,
    role: 'user',
    suspended: false,
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
    suspension: null,
    awaitingApproval: false,
    ...overrides,
  };
}
