import { describe, expect, it } from 'vitest';
import {
  feedTopic,
  parseTopic,
  postTopic,
  topicKinds,
  topicName,
  userTopic,
} from '../realtime-protocol.js';
import { makePost } from '../test/post-fixtures.js';
import { makeUserDocument } from '../test/user-fixtures.js';
import { maySubscribe, topics } from './topics.js';

const user = makeUserDocument();
const post = makePost();

describe('topic names', () => {
  it('are built and read back by the kind that owns them', () => {
    expect(userTopic('u_1-A')).toBe('users/u_1-A');
    expect(postTopic('42')).toBe('posts/42');
    expect(feedTopic).toBe('feed');
    expect(parseTopic('users/u_1-A')).toEqual({ kind: 'user', key: 'u_1-A', name: 'users/u_1-A' });
    expect(parseTopic('posts/42')).toEqual({ kind: 'post', key: '42', name: 'posts/42' });
    expect(parseTopic('feed')).toEqual({ kind: 'feed', key: null, name: 'feed' });
  });

  it('round-trip for every kind in the registry', () => {
    const keys = {
      user: 'ada',
      post: '7',
      feed: null,
      notifications: 'ada',
      relationships: 'ada',
      moderation: null,
    } as const;
    for (const kind of topicKinds) {
      const name = topicName(kind, keys[kind]);
      expect(parseTopic(name)).toEqual({ kind, key: keys[kind], name });
      expect(topics[kind].naming.parse(name)).toBe(keys[kind]);
    }
  });

  it.each([
    ['an unknown kind', 'comments/1'],
    ['a post id with a leading zero', 'posts/01'],
    ['a post id that is not a number', 'posts/abc'],
    ['a post id of 17 digits', `posts/1${'0'.repeat(16)}`],
    ['a uid with odd characters', 'users/../admin'],
    ['an empty uid', 'users/'],
    ['an over-long uid', `users/${'a'.repeat(65)}`],
    ['a feed with a key', 'feed/1'],
    ['a prefix of another name', 'fee'],
    ['the internal session channel', 'internal/sessions/ada'],
  ])('refuse %s', (_what, name) => {
    expect(parseTopic(name)).toBeNull();
  });
});

describe('topic documents', () => {
  it('match the schema of their own kind only', () => {
    const signal = { head: post.id, change: { kind: 'created', post } };
    expect(topics.user.document.safeParse(user).success).toBe(true);
    expect(topics.user.document.safeParse(null).success).toBe(true);
    expect(topics.user.document.safeParse(post).success).toBe(false);
    expect(topics.post.document.safeParse(post).success).toBe(true);
    expect(topics.post.document.safeParse(user).success).toBe(false);
    expect(topics.feed.document.safeParse(signal).success).toBe(true);
    // The feed always has a signal; a deleted post or user is null, the feed never is.
    expect(topics.feed.document.safeParse(null).success).toBe(false);
  });
});

describe('maySubscribe', () => {
  const ada = { uid: 'ada' };

  it('lets anyone follow a public topic', () => {
    const topic = parseTopic(userTopic('ada'));
    if (!topic) throw new Error('unparsed');
    expect(topics.user.audience).toBe('public');
    expect(maySubscribe(topic, null)).toBe(true);
    expect(maySubscribe(topic, { uid: 'bob' })).toBe(true);
  });

  it('lets only the account its key names follow a `self` topic', () => {
    const own = parseTopic(userTopic('ada'));
    const other = parseTopic(userTopic('bob'));
    if (!own || !other) throw new Error('unparsed');
    const audience = topics.user.audience;
    topics.user.audience = 'self';
    try {
      expect(maySubscribe(own, ada)).toBe(true);
      expect(maySubscribe(other, ada)).toBe(false);
      expect(maySubscribe(own, null)).toBe(false);
    } finally {
      topics.user.audience = audience;
    }
  });
});
