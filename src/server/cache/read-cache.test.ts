import { describe, expect, it } from 'vitest';
import { feedTopic, postTopic, userTopic } from '../../shared/realtime.js';
import { relationshipsTopic } from '../../shared/realtime-protocol.js';
import type { Page, Post, PostView, Thread } from '../../shared/schemas/post.js';
import type { UserDocument } from '../../shared/schemas/user.js';
import { LocalEventBus } from '../events/bus.js';
import { InvalidatingBus, ReadCache } from './read-cache.js';
import { TaggedLru } from './tagged-lru.js';

/** A local bus whose connection to the other instances can be cut and restored. */
class SwitchableBus extends LocalEventBus {
  up = true;
  override connected(): boolean {
    return this.up;
  }
}

function post(id: string, authorUid = 'author1'): Post {
  return {
    id,
    author: {
      uid: authorUid,
      username: authorUid,
      firstName: null,
      lastName: null,
      displayName: null,
      avatarThumb: null,
      active: true,
    },
    body: `Post ${id}`,
    images: [],
    createdAt: '2026-01-01T00:00:00.000Z',
    editedAt: null,
    likeCount: 0,
    commentCount: 0,
    commentsRevision: 0,
    removal: null,
  };
}

const view = (id: string, authorUid?: string): PostView => ({
  ...post(id, authorUid),
  liked: false,
});

function profile(uid: string, username: string): UserDocument {
  return {
    uid,
    username,
    firstName: null,
    lastName: null,
    displayName: null,
    avatar: null,
    avatarThumb: null,
    avatarAlt: null,
    cover: null,
    coverSmall: null,
    coverAlt: null,
    bio: null,
    bioMentions: [],
    website: null,
    role: 'user',
    active: true,
    suspended: false,
    createdAt: '2026-01-01T00:00:00.000Z',
    counts: { posts: 0, followers: 0, following: 0 },
  };
}

const sizes = { posts: 3, profiles: 3 };

describe('TaggedLru', () => {
  it('drops the least recently used entry once full', () => {
    const lru = new TaggedLru<number>(2);
    lru.set('a', 1, []);
    lru.set('b', 2, []);
    expect(lru.get('a')).toBe(1);
    lru.set('c', 3, []);
    expect(lru.get('b')).toBeUndefined();
    expect(lru.get('a')).toBe(1);
    expect(lru.get('c')).toBe(3);
    expect(lru.size).toBe(2);
  });

  it('drops every entry of a tag, and forgets tags of entries it evicted', () => {
    const lru = new TaggedLru<number>(2);
    lru.set('a', 1, ['t']);
    lru.set('b', 2, ['t', 'u']);
    lru.set('c', 3, ['u']);
    // 'a' was evicted; dropping 't' must not bring anything back or fail.
    lru.dropTag('t');
    expect(lru.get('b')).toBeUndefined();
    expect(lru.get('c')).toBe(3);
    lru.dropTag('u');
    expect(lru.size).toBe(0);
  });

  it('forgets an entry once it runs out', () => {
    const lru = new TaggedLru<number>(2);
    lru.set('a', 1, [], 1_000);
    expect(lru.get('a', 999)).toBe(1);
    expect(lru.get('a', 1_000)).toBeUndefined();
    expect(lru.size).toBe(0);
  });

  it('keeps nothing with a capacity of 0', () => {
    const lru = new TaggedLru<number>(0);
    lru.set('a', 1, []);
    expect(lru.get('a')).toBeUndefined();
  });
});

describe('ReadCache', () => {
  it('drops a post on its topic and every post of an author on theirs', async () => {
    const bus = new SwitchableBus();
    const cache = new ReadCache(bus, sizes);
    const generation = cache.generation();
    cache.keepPost(post('1', 'ann'), generation);
    cache.keepPost(post('2', 'ann'), generation);
    cache.keepPost(post('3', 'bob'), generation);
    await bus.publish({ topic: postTopic('3'), data: null });
    expect(cache.post('3')).toBeUndefined();
    expect(cache.post('1')?.id).toBe('1');
    await bus.publish({ topic: userTopic('ann'), data: profile('ann', 'ann') });
    expect(cache.post('1')).toBeUndefined();
    expect(cache.post('2')).toBeUndefined();
    cache.close();
  });

  it('refuses a store whose read began before an event', async () => {
    const bus = new SwitchableBus();
    const cache = new ReadCache(bus, sizes);
    const before = cache.generation();
    await bus.publish({ topic: postTopic('1'), data: null });
    cache.keepPost(post('1'), before);
    expect(cache.post('1')).toBeUndefined();
    cache.keepPost(post('1'), cache.generation());
    expect(cache.post('1')?.id).toBe('1');
    cache.close();
  });

  it('is bypassed and emptied while the bus may miss events, and used again once it is back', () => {
    const bus = new SwitchableBus();
    const cache = new ReadCache(bus, sizes);
    cache.keepPost(post('1'), cache.generation());
    bus.up = false;
    expect(cache.post('1')).toBeUndefined();
    cache.keepPost(post('1'), cache.generation());
    bus.up = true;
    // Connected again, but not yet confirmed: events of the outage may still be unknown.
    expect(cache.post('1')).toBeUndefined();
    cache.keepPost(post('1'), cache.generation());
    expect(cache.post('1')).toBeUndefined();
    bus.resumed();
    cache.keepPost(post('1'), cache.generation());
    expect(cache.post('1')?.id).toBe('1');
    cache.close();
  });

  it('keeps profiles by lowercase name until their user changes, and mentioning bios until anyone does', async () => {
    const bus = new SwitchableBus();
    const cache = new ReadCache(bus, sizes);
    cache.keepProfile(profile('ann', 'Ann'), cache.generation(), {
      mentions: false,
      expiresAt: Infinity,
    });
    cache.keepProfile(profile('bob', 'bob'), cache.generation(), {
      mentions: true,
      expiresAt: Infinity,
    });
    expect(cache.profile('ann')?.uid).toBe('ann');
    await bus.publish({ topic: userTopic('carol'), data: null });
    expect(cache.profile('ann')?.uid).toBe('ann');
    expect(cache.profile('bob')).toBeUndefined();
    await bus.publish({ topic: userTopic('ann'), data: null });
    expect(cache.profile('ann')).toBeUndefined();
    cache.close();
  });

  it('drops the Everyone page on a new post, and on a change at or above its oldest post only', async () => {
    const bus = new SwitchableBus();
    const cache = new ReadCache(bus, sizes);
    const page: Page<PostView> = { items: [view('30'), view('20', 'bob')], nextCursor: '20' };
    const keep = () => cache.keepEveryone(2, page, cache.generation());
    keep();
    await bus.publish({
      topic: feedTopic,
      data: { head: '30', change: { kind: 'deleted', postId: '9' } },
    });
    expect(cache.everyone(2)).toBe(page);
    expect(cache.everyone(3)).toBeUndefined();
    // A restored post newer than the page's oldest would join it.
    await bus.publish({
      topic: feedTopic,
      data: { head: '30', change: { kind: 'updated', post: post('25') } },
    });
    expect(cache.everyone(2)).toBeUndefined();
    keep();
    await bus.publish({
      topic: feedTopic,
      data: { head: '31', change: { kind: 'created', post: post('31') } },
    });
    expect(cache.everyone(2)).toBeUndefined();
    keep();
    await bus.publish({ topic: userTopic('bob'), data: null });
    expect(cache.everyone(2)).toBeUndefined();
    keep();
    await bus.publish({ topic: postTopic('30'), data: null });
    expect(cache.everyone(2)).toBeUndefined();
    cache.close();
  });

  it('keeps the feed’s head through likes and edits, and drops it when a post is created or deleted', async () => {
    const bus = new SwitchableBus();
    const cache = new ReadCache(bus, sizes);
    const keep = (id: string | null) => cache.keepHead(id, cache.generation());
    keep('30');
    await bus.publish({
      topic: feedTopic,
      data: { head: '30', change: { kind: 'updated', post: post('12') } },
    });
    await bus.publish({ topic: postTopic('12'), data: post('12') });
    expect(cache.head()).toEqual({ id: '30' });
    await bus.publish({
      topic: feedTopic,
      data: { head: '31', change: { kind: 'created', post: post('31') } },
    });
    expect(cache.head()).toBeUndefined();
    keep('31');
    await bus.publish({
      topic: feedTopic,
      data: { head: '30', change: { kind: 'deleted', postId: '31' } },
    });
    expect(cache.head()).toBeUndefined();
    // An account's deletion tells only each post's watchers.
    keep('30');
    await bus.publish({ topic: postTopic('30'), data: null });
    expect(cache.head()).toBeUndefined();
    keep(null);
    expect(cache.head()).toEqual({ id: null });
    await bus.publish({ topic: feedTopic, data: { head: '1', change: null } });
    expect(cache.head()).toBeUndefined();
    // A read that began before an event stores nothing.
    const generation = cache.generation();
    await bus.publish({
      topic: feedTopic,
      data: { head: '2', change: { kind: 'created', post: post('2') } },
    });
    cache.keepHead('1', generation);
    expect(cache.head()).toBeUndefined();
    keep('2');
    bus.up = false;
    expect(cache.head()).toBeUndefined();
    cache.close();
  });

  it('drops a comments page when its post or one of its authors changes', async () => {
    const bus = new SwitchableBus();
    const cache = new ReadCache(bus, sizes);
    const reply = { ...view('8', 'dan'), postId: '5', parentId: '7', replyCount: 0 };
    const thread: Thread = {
      ...view('7', 'cat'),
      postId: '5',
      parentId: null,
      replyCount: 1,
      replies: [reply],
    };
    const page: Page<Thread> = { items: [thread], nextCursor: null };
    const keep = () => cache.keepThread('5', 20, page, cache.generation());
    keep();
    await bus.publish({ topic: postTopic('6'), data: null });
    expect(cache.thread('5', 20)).toBe(page);
    await bus.publish({ topic: userTopic('dan'), data: null });
    expect(cache.thread('5', 20)).toBeUndefined();
    keep();
    await bus.publish({ topic: postTopic('5'), data: null });
    expect(cache.thread('5', 20)).toBeUndefined();
    cache.close();
  });

  it("drops a reader's Following ids when someone they follow posts, or their page's membership changes", async () => {
    const bus = new SwitchableBus();
    const cache = new ReadCache(bus, { posts: 100, profiles: 3 });
    const keep = () =>
      cache.keepFollowing('rea', 2, ['30', '20', '10'], ['ann', 'bob'], cache.generation());
    keep();
    expect(cache.following('rea', 2)).toEqual(['30', '20', '10']);
    expect(cache.following('rea', 5)).toBeUndefined();
    const created = (author: string, id: string) =>
      bus.publish({
        topic: feedTopic,
        data: { head: id, change: { kind: 'created', post: post(id, author) } },
      });
    const updated = (author: string, id: string) =>
      bus.publish({
        topic: feedTopic,
        data: { head: '40', change: { kind: 'updated', post: post(id, author) } },
      });
    await created('cat', '40');
    expect(cache.following('rea', 2)).toBeDefined();
    await created('bob', '41');
    expect(cache.following('rea', 2)).toBeUndefined();
    keep();
    await created('rea', '42');
    expect(cache.following('rea', 2)).toBeUndefined();
    keep();
    // A like of a listed post, or of one below the page, changes no ids; a restored one above it does.
    await updated('ann', '30');
    await updated('ann', '5');
    await bus.publish({ topic: postTopic('30'), data: post('30', 'ann') });
    expect(cache.following('rea', 2)).toBeDefined();
    await updated('ann', '25');
    expect(cache.following('rea', 2)).toBeUndefined();
    keep();
    await bus.publish({ topic: postTopic('20'), data: null });
    expect(cache.following('rea', 2)).toBeUndefined();
    keep();
    await bus.publish({
      topic: feedTopic,
      data: { head: '42', change: { kind: 'deleted', postId: '10' } },
    });
    expect(cache.following('rea', 2)).toBeUndefined();
    keep();
    await bus.publish({ topic: relationshipsTopic('rea'), data: { revision: '1' } });
    expect(cache.following('rea', 2)).toBeUndefined();
    keep();
    await bus.publish({ topic: userTopic('rea'), data: null });
    expect(cache.following('rea', 2)).toBeUndefined();
    keep();
    await bus.publish({ topic: userTopic('ann'), data: null });
    expect(cache.following('rea', 2)).toBeUndefined();
    cache.close();
  });

  it("drops the writer's own entries as it publishes, before any other instance hears", async () => {
    const inner = new SwitchableBus();
    const cache = new ReadCache(inner, sizes);
    // Events from the publisher reach no listener, as with Redis before it echoes them back.
    const silent = Object.assign(Object.create(inner) as SwitchableBus, {
      publish: () => Promise.resolve(),
    });
    const bus = new InvalidatingBus(silent, cache);
    cache.keepPost(post('1'), cache.generation());
    await bus.publish({ topic: postTopic('1'), data: null });
    expect(cache.post('1')).toBeUndefined();
    cache.close();
  });
});
