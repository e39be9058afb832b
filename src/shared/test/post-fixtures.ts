import type { Author, Page, Post, PostView } from '../schemas/post.js';

/** A complete, valid author for unit tests. */
export function makeAuthor(overrides: Partial<Author> = {}): Author {
  return {
    uid: 'u1',
    username: 'ada',
    firstName: 'Ada',
    lastName: 'Lovelace',
    displayName: null,
    avatarThumb: null,
    active: true,
    ...overrides,
  };
}

/** A complete, valid public post document. */
export function makePost(overrides: Partial<Post> = {}): Post {
  return {
    id: '1',
    author: makeAuthor(),
    body: 'Hello',
    images: [],
    createdAt: '2025-01-02T03:04:05.000Z',
    editedAt: null,
    likeCount: 0,
    commentCount: 0,
    commentsRevision: 0,
    removal: null,
    ...overrides,
  };
}

/** A post as one viewer sees it. */
export function makePostView(overrides: Partial<PostView> = {}): PostView {
  return { ...makePost(overrides), liked: false, ...overrides };
}

/** A page of posts with the given ids (newest first) and cursor. */
export function makePostPage(ids: string[], nextCursor: string | null = null): Page<PostView> {
  return { items: ids.map((id) => makePostView({ id })), nextCursor };
}
