import type { Comment, Thread } from '../schemas/post.js';
import { makeAuthor } from './post-fixtures.js';

/** A complete, valid comment for unit tests; override only what a test is about. */
export function makeComment(overrides: Partial<Comment> = {}): Comment {
  return {
    id: '1',
    postId: '9',
    parentId: null,
    author: makeAuthor(),
    body: 'Hello',
    createdAt: '2025-01-02T03:04:05.000Z',
    editedAt: null,
    likeCount: 0,
    replyCount: 0,
    liked: false,
    removal: null,
    ...overrides,
  };
}

/** A top-level comment with replies of the given ids. */
export function makeThread(
  id: string,
  replyIds: string[] = [],
  replyCount = replyIds.length,
): Thread {
  return {
    ...makeComment({ id, replyCount }),
    replies: replyIds.map((reply) => makeComment({ id: reply, parentId: id })),
  };
}
