import type { LightMyRequestResponse } from 'fastify';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { relationshipsTopic, userTopic } from '../../../shared/realtime-protocol.js';
import type { ServerMessage } from '../../../shared/realtime.js';
import { followListPageSchema } from '../../../shared/schemas/follow.js';
import {
  authorPageSchema,
  commentSchema,
  postPageSchema,
  postViewSchema,
  threadPageSchema,
  commentPageSchema,
} from '../../../shared/schemas/post.js';
import {
  fullRelationshipSchema,
  hiddenAuthorsSchema,
  relationshipListPageSchema,
  relationshipsSignalSchema,
  type FullRelationship,
} from '../../../shared/schemas/relationship.js';
import { userDocumentSchema } from '../../../shared/schemas/user.js';
import type { DatabaseHandle } from '../../db/database.js';
import {
  connectRealtime,
  createTestApp,
  databaseTargets,
  expectError,
  listen,
  openAppDatabase,
  send,
  signUp,
  type RealtimeClient,
  type TestApp,
} from '../../test/harness.js';

type Person = Awaited<ReturnType<typeof signUp>>;
type As = { cookie: string | undefined };

const none: FullRelationship = {
  following: false,
  followedBy: false,
  blocking: false,
  blockedBy: false,
  muting: false,
  muteExpiresAt: null,
};

describe.each(databaseTargets)('block and mute on $name', (target) => {
  let t: TestApp;
  let database: DatabaseHandle;
  let baseUrl: string;
  let people: Person[];
  let next = 0;
  let inactive: Person;
  let suspended: Person;
  let moderator: Person;
  let admin: Person;
  const sockets: RealtimeClient[] = [];
  const anonymous: As = { cookie: undefined };

  const fresh = (): Person => {
    const person = people[next];
    next += 1;
    if (!person) throw new Error('ran out of people: sign more up in beforeAll');
    return person;
  };

  const ok = (response: LightMyRequestResponse, status = 200) => {
    expect(response.statusCode, response.body).toBe(status);
    return response.json<unknown>();
  };
  const as = (person: As) => ({ cookie: person.cookie });

  const block = (uid: string, by: As) =>
    send(t.app, 'PUT', `/api/users/${uid}/block`, undefined, as(by));
  const unblock = (uid: string, by: As) =>
    send(t.app, 'DELETE', `/api/users/${uid}/block`, undefined, as(by));
  const mute = (uid: string, by: As, body: unknown = {}) =>
    send(t.app, 'PUT', `/api/users/${uid}/mute`, body, as(by));
  const unmute = (uid: string, by: As) =>
    send(t.app, 'DELETE', `/api/users/${uid}/mute`, undefined, as(by));
  const follow = (uid: string, by: As) =>
    send(t.app, 'PUT', `/api/users/${uid}/follow`, undefined, as(by));

  async function relationship(uid: string, viewer: As): Promise<FullRelationship> {
    const response = await send(
      t.app,
      'GET',
      `/api/users/${uid}/relationship`,
      undefined,
      as(viewer),
    );
    return fullRelationshipSchema.parse(ok(response));
  }

  async function post(author: Person, body: string): Promise<string> {
    const response = await send(t.app, 'POST', '/api/posts', { body }, as(author));
    return postViewSchema.parse(ok(response, 201)).id;
  }

  async function comment(author: Person, postId: string, body: string, parentId?: string) {
    const response = await send(
      t.app,
      'POST',
      `/api/posts/${postId}/comments`,
      parentId ? { body, parentId } : { body },
      as(author),
    );
    return response;
  }

  async function commentId(author: Person, postId: string, body: string, parentId?: string) {
    return commentSchema.parse(ok(await comment(author, postId, body, parentId), 201)).id;
  }

  async function feedIds(viewer: As, query: string): Promise<string[]> {
    const response = await send(t.app, 'GET', `/api/feed?${query}`, undefined, as(viewer));
    return postPageSchema.parse(ok(response)).items.map((item) => item.id);
  }

  async function threadAuthors(postId: string, viewer: As): Promise<string[]> {
    const response = await send(
      t.app,
      'GET',
      `/api/posts/${postId}/comments`,
      undefined,
      as(viewer),
    );
    return threadPageSchema
      .parse(ok(response))
      .items.flatMap((thread) => [thread.author.uid, ...thread.replies.map((r) => r.author.uid)]);
  }

  async function notificationsOf(uid: string) {
    return database.db
      .selectFrom('notifications')
      .select(['kind', 'actorId'])
      .where('recipientId', '=', uid)
      .execute();
  }

  beforeAll(async () => {
    t = await createTestApp(target);
    database = openAppDatabase(t);
    baseUrl = await listen(t);
    const everyone: Person[] = [];
    while (everyone.length < 44) {
      const batch = Math.min(8, 44 - everyone.length);
      everyone.push(...(await Promise.all(Array.from({ length: batch }, () => signUp(t.app)))));
    }
    people = everyone;
    inactive = fresh();
    suspended = fresh();
    moderator = fresh();
    admin = fresh();
    await t.app.services.users.setActive(inactive.user.username, false);
    await t.app.services.users.setRole(moderator.user.username, 'moderator');
    await t.app.services.users.setRole(admin.user.username, 'admin');
    await database.db
      .updateTable('users')
      .set({ suspendedAt: new Date().toISOString(), suspensionReason: 'Spam.' })
      .where('id', '=', suspended.user.uid)
      .execute();
    // 44 sign-ups hash 44 passwords: allow for a busy machine.
  }, 180_000);
  afterEach(async () => {
    await Promise.all(sockets.splice(0).map((client) => client.close()));
  });
  afterAll(async () => {
    await database.close();
    await t.close();
  });

  describe('block', () => {
    it('blocks idempotently, ends follows both ways with their counts, and unblocks', async () => {
      const [a, b] = [fresh(), fresh()];
      ok(await follow(b.user.uid, a));
      ok(await follow(a.user.uid, b));
      expect(await relationship(b.user.uid, a)).toMatchObject({
        following: true,
        followedBy: true,
      });

      const blocked = fullRelationshipSchema.parse(ok(await block(b.user.uid, a)));
      expect(blocked).toEqual({ ...none, blocking: true });
      expect(fullRelationshipSchema.parse(ok(await block(b.user.uid, a)))).toEqual(blocked);
      expect(await relationship(a.user.uid, b)).toEqual({ ...none, blockedBy: true });

      const follows = await database.db
        .selectFrom('follows')
        .select('id')
        .where((eb) =>
          eb.or([eb('followerId', '=', a.user.uid), eb('followeeId', '=', a.user.uid)]),
        )
        .execute();
      expect(follows).toEqual([]);
      for (const person of [a, b]) {
        const doc = userDocumentSchema.parse(
          ok(await send(t.app, 'GET', `/api/users/${person.user.uid}`)),
        );
        expect(doc.counts).toMatchObject({ followers: 0, following: 0 });
      }
      // The follow notification each had of the other went with the follow.
      expect((await notificationsOf(a.user.uid)).filter((n) => n.kind === 'follow')).toEqual([]);

      expect(fullRelationshipSchema.parse(ok(await unblock(b.user.uid, a)))).toEqual(none);
      expect(fullRelationshipSchema.parse(ok(await unblock(b.user.uid, a)))).toEqual(none);
      // Follows ended by the block do not come back.
      expect(await relationship(b.user.uid, a)).toEqual(none);
    });

    it('refuses oneself (400) and unknown people (404), changing nothing', async () => {
      const a = fresh();
      expectError(await block(a.user.uid, a), 400, 'validation_failed');
      expectError(await mute(a.user.uid, a), 400, 'validation_failed');
      expectError(await unblock(a.user.uid, a), 400, 'validation_failed');
      expectError(await unmute(a.user.uid, a), 400, 'validation_failed');
      expectError(await block('nobody-here', a), 404, 'not_found');
      expectError(await mute('nobody-here', a), 404, 'not_found');
      expectError(await mute(fresh().user.uid, a, { duration: '2d' }), 400, 'validation_failed');
      const rows = await database.db
        .selectFrom('blocks')
        .select('blockerId')
        .where('blockerId', '=', a.user.uid)
        .execute();
      expect(rows).toEqual([]);
    });

    it('authorisation matrix: only active, unsuspended accounts block and mute, for themselves', async () => {
      const target = fresh();
      for (const write of [block, unblock, mute, unmute]) {
        expectError(await write(target.user.uid, anonymous), 401, 'unauthenticated');
        expectError(await write(target.user.uid, inactive), 403, 'account_inactive');
        expectError(await write(target.user.uid, suspended), 403, 'account_suspended');
      }
      for (const list of ['blocks', 'mutes', 'hidden-authors']) {
        expectError(await send(t.app, 'GET', `/api/me/${list}`), 401, 'unauthenticated');
        // Signed-in but inactive or suspended accounts still see their own lists.
        ok(await send(t.app, 'GET', `/api/me/${list}`, undefined, as(inactive)));
        ok(await send(t.app, 'GET', `/api/me/${list}`, undefined, as(suspended)));
      }
      // Staff block for themselves like anyone; nobody acts for another.
      for (const staff of [moderator, admin]) {
        expect(fullRelationshipSchema.parse(ok(await block(target.user.uid, staff))).blocking).toBe(
          true,
        );
      }
      const user = fresh();
      ok(await block(target.user.uid, user));
      ok(await unblock(target.user.uid, admin));
      expect((await relationship(target.user.uid, user)).blocking).toBe(true);
      expect((await relationship(user.user.uid, target)).blockedBy).toBe(true);
      // The target cannot lift a block on themselves.
      ok(await unblock(user.user.uid, target));
      expect((await relationship(target.user.uid, user)).blocking).toBe(true);
      const count = await database.db
        .selectFrom('blocks')
        .select('blockerId')
        .where('blockedId', '=', target.user.uid)
        .execute();
      expect(count.map((row) => row.blockerId).sort()).toEqual(
        [moderator.user.uid, user.user.uid].sort(),
      );
    });

    it('lists my blocks, newest first, paged', async () => {
      const me = fresh();
      const others = [fresh(), fresh(), fresh()];
      for (const other of others) ok(await block(other.user.uid, me));
      const first = relationshipListPageSchema.parse(
        ok(await send(t.app, 'GET', '/api/me/blocks?limit=2', undefined, as(me))),
      );
      expect(first.items.map((item) => item.uid)).toHaveLength(2);
      expect(first.nextCursor).not.toBeNull();
      const second = relationshipListPageSchema.parse(
        ok(
          await send(
            t.app,
            'GET',
            `/api/me/blocks?limit=2&cursor=${encodeURIComponent(first.nextCursor ?? '')}`,
            undefined,
            as(me),
          ),
        ),
      );
      expect(second.nextCursor).toBeNull();
      const all = [...first.items, ...second.items];
      expect(all.map((item) => item.uid).sort()).toEqual(others.map((o) => o.user.uid).sort());
      expect(all.every((item) => item.expiresAt === null && item.since.length > 0)).toBe(true);
      expectError(
        await send(t.app, 'GET', '/api/me/blocks?cursor=nonsense', undefined, as(me)),
        400,
        'validation_failed',
      );
    });
  });

  describe('mute', () => {
    it('mutes for a time or until unmuted, lists live mutes, and expired ones stop applying and are swept', async () => {
      const [me, brief, lasting] = [fresh(), fresh(), fresh()];
      const timed = fullRelationshipSchema.parse(
        ok(await mute(brief.user.uid, me, { duration: '1h' })),
      );
      expect(timed.muting).toBe(true);
      const expires = Date.parse(timed.muteExpiresAt ?? '');
      expect(expires - Date.now()).toBeGreaterThan(59 * 60_000);
      expect(expires - Date.now()).toBeLessThanOrEqual(60 * 60_000);
      expect(fullRelationshipSchema.parse(ok(await mute(lasting.user.uid, me)))).toEqual({
        ...none,
        muting: true,
      });
      // The muted person is not told.
      expect(await relationship(me.user.uid, lasting)).toEqual(none);

      const postId = await post(brief, 'brief words');
      expect(await feedIds(me, 'tab=everyone')).not.toContain(postId);
      const mutes = relationshipListPageSchema.parse(
        ok(await send(t.app, 'GET', '/api/me/mutes', undefined, as(me))),
      );
      expect(mutes.items.map((item) => item.uid).sort()).toEqual(
        [brief.user.uid, lasting.user.uid].sort(),
      );

      // The hour passes: the mute stops applying at once, before any sweep.
      await database.db
        .updateTable('mutes')
        .set({ expiresAt: new Date(Date.now() - 1000).toISOString() })
        .where('muterId', '=', me.user.uid)
        .where('mutedId', '=', brief.user.uid)
        .execute();
      expect(await feedIds(me, 'tab=everyone')).toContain(postId);
      expect((await relationship(brief.user.uid, me)).muting).toBe(false);
      const after = relationshipListPageSchema.parse(
        ok(await send(t.app, 'GET', '/api/me/mutes', undefined, as(me))),
      );
      expect(after.items.map((item) => item.uid)).toEqual([lasting.user.uid]);

      await t.app.services.relationships.sweep();
      const left = await database.db
        .selectFrom('mutes')
        .select('mutedId')
        .where('muterId', '=', me.user.uid)
        .execute();
      expect(left.map((row) => row.mutedId)).toEqual([lasting.user.uid]);

      expect(fullRelationshipSchema.parse(ok(await unmute(lasting.user.uid, me))).muting).toBe(
        false,
      );
      expect(fullRelationshipSchema.parse(ok(await unmute(lasting.user.uid, me))).muting).toBe(
        false,
      );
    });
  });

  describe('every surface, both ways', () => {
    it('feeds, tag feed, profile posts and the post page', async () => {
      const [a, b, c, watcher] = [fresh(), fresh(), fresh(), fresh()];
      ok(await follow(b.user.uid, watcher));
      ok(await follow(c.user.uid, watcher));
      const tag = `tag${String(Date.now()).slice(-6)}`;
      const aPost = await post(a, `from a #${tag}`);
      const bPost = await post(b, `from b #${tag}`);
      const cPost = await post(c, `from c #${tag}`);
      ok(await block(b.user.uid, a));
      ok(await mute(c.user.uid, watcher));

      for (const [viewer, hidden, seen] of [
        [a, bPost, aPost],
        [b, aPost, bPost],
      ] as const) {
        expect(await feedIds(viewer, 'tab=everyone')).not.toContain(hidden);
        expect(await feedIds(viewer, 'tab=everyone')).toContain(seen);
        expect(await feedIds(viewer, `tab=everyone&tag=${tag}`)).not.toContain(hidden);
        expect(await feedIds(viewer, `tab=everyone&tag=${tag}`)).toContain(cPost);
        const other = hidden === bPost ? b : a;
        expectError(
          await send(t.app, 'GET', `/api/posts/${hidden}`, undefined, as(viewer)),
          404,
          'not_found',
        );
        expectError(
          await send(t.app, 'GET', `/api/users/${other.user.uid}/posts`, undefined, as(viewer)),
          404,
          'not_found',
        );
        expectError(
          await send(t.app, 'GET', `/api/posts/${hidden}/comments`, undefined, as(viewer)),
          404,
          'not_found',
        );
        // The profile document itself still loads.
        ok(await send(t.app, 'GET', `/api/users/${other.user.uid}`, undefined, as(viewer)));
      }
      // Others see both, and anonymous readers too.
      for (const viewer of [c, anonymous]) {
        const ids = await feedIds(viewer, 'tab=everyone');
        expect(ids).toEqual(expect.arrayContaining([aPost, bPost]));
      }
      // A mute empties the muter's Following and Everyone feeds of the person, but not their page.
      expect(await feedIds(watcher, 'tab=following')).toEqual([bPost]);
      expect(await feedIds(watcher, 'tab=everyone')).not.toContain(cPost);
      expect(await feedIds(watcher, `tab=everyone&tag=${tag}`)).not.toContain(cPost);
      ok(await send(t.app, 'GET', `/api/posts/${cPost}`, undefined, as(watcher)));
      const cPosts = postPageSchema.parse(
        ok(await send(t.app, 'GET', `/api/users/${c.user.uid}/posts`, undefined, as(watcher))),
      );
      expect(cPosts.items.map((item) => item.id)).toEqual([cPost]);
    });

    it('comments and replies are hidden both ways, and muted people’s from the muter', async () => {
      const [host, a, b, muted, muter] = [fresh(), fresh(), fresh(), fresh(), fresh()];
      const postId = await post(host, 'a post to talk under');
      const aComment = await commentId(a, postId, 'a speaks');
      await commentId(b, postId, 'b speaks');
      await commentId(b, postId, 'b replies to a', aComment);
      const mutedComment = await commentId(muted, postId, 'muted speaks');
      await commentId(a, postId, 'a replies to muted', mutedComment);
      ok(await block(b.user.uid, a));
      ok(await mute(muted.user.uid, muter));

      expect(await threadAuthors(postId, a)).not.toContain(b.user.uid);
      expect(await threadAuthors(postId, b)).not.toContain(a.user.uid);
      expect(await threadAuthors(postId, muter)).not.toContain(muted.user.uid);
      expect(await threadAuthors(postId, muter)).toContain(a.user.uid);
      expect(await threadAuthors(postId, host)).toEqual(
        expect.arrayContaining([a.user.uid, b.user.uid, muted.user.uid]),
      );
      const replies = commentPageSchema.parse(
        ok(await send(t.app, 'GET', `/api/comments/${aComment}/replies`, undefined, as(a))),
      );
      expect(replies.items.map((item) => item.author.uid)).not.toContain(b.user.uid);
      const anonymousReplies = commentPageSchema.parse(
        ok(await send(t.app, 'GET', `/api/comments/${aComment}/replies`)),
      );
      expect(anonymousReplies.items.map((item) => item.author.uid)).toContain(b.user.uid);
    });

    it('writes between blocked people are refused with 403, both ways', async () => {
      const [a, b] = [fresh(), fresh()];
      const aPost = await post(a, 'a writes');
      const bPost = await post(b, 'b writes');
      const aComment = await commentId(a, bPost, 'a comments on b');
      const bComment = await commentId(b, aPost, 'b comments on a');
      ok(await block(b.user.uid, a));
      for (const [actor, other, otherPost, otherComment] of [
        [a, b, bPost, bComment],
        [b, a, aPost, aComment],
      ] as const) {
        expectError(await follow(other.user.uid, actor), 403, 'forbidden');
        expectError(await comment(actor, otherPost, 'hello'), 403, 'forbidden');
        expectError(
          await send(t.app, 'PUT', `/api/posts/${otherPost}/like`, undefined, as(actor)),
          403,
          'forbidden',
        );
        expectError(
          await send(t.app, 'PUT', `/api/comments/${otherComment}/like`, undefined, as(actor)),
          403,
          'forbidden',
        );
      }
      // A reply to the other's comment under a third person's post.
      const host = fresh();
      const hostPost = await post(host, 'neutral ground');
      const bOnHost = await commentId(b, hostPost, 'b on host');
      expectError(await comment(a, hostPost, 'a replies', bOnHost), 403, 'forbidden');
      const stored = await database.db
        .selectFrom('comments')
        .select('id')
        .where('authorId', 'in', [a.user.uid, b.user.uid])
        .execute();
      expect(stored).toHaveLength(3);
      // Muting refuses nothing: the muter can still act.
      const c = fresh();
      ok(await mute(a.user.uid, c));
      ok(await send(t.app, 'PUT', `/api/posts/${aPost}/like`, undefined, as(c)));
    });

    it('likers, followers and following lists leave out blocked people', async () => {
      const [a, b, star] = [fresh(), fresh(), fresh()];
      const starPost = await post(star, 'like me');
      for (const person of [a, b]) {
        ok(await send(t.app, 'PUT', `/api/posts/${starPost}/like`, undefined, as(person)));
        ok(await follow(star.user.uid, person));
      }
      ok(await follow(a.user.uid, star));
      ok(await follow(b.user.uid, star));
      ok(await block(b.user.uid, a));
      for (const [viewer, other] of [
        [a, b],
        [b, a],
      ] as const) {
        const likers = authorPageSchema.parse(
          ok(await send(t.app, 'GET', `/api/posts/${starPost}/likes`, undefined, as(viewer))),
        );
        expect(likers.items.map((item) => item.uid)).toEqual([viewer.user.uid]);
        for (const list of ['followers', 'following']) {
          const page = followListPageSchema.parse(
            ok(
              await send(
                t.app,
                'GET',
                `/api/users/${star.user.uid}/${list}`,
                undefined,
                as(viewer),
              ),
            ),
          );
          expect(page.items.map((item) => item.uid)).not.toContain(other.user.uid);
          expect(page.items.map((item) => item.uid)).toContain(viewer.user.uid);
        }
      }
      const seenByStar = authorPageSchema.parse(
        ok(await send(t.app, 'GET', `/api/posts/${starPost}/likes`, undefined, as(star))),
      );
      expect(seenByStar.items).toHaveLength(2);
    });

    it('search leaves out blocked people and their posts, and muted people’s posts', async () => {
      const word = `zq${String(Date.now()).slice(-7)}`;
      const [a, b, muted, muter] = [
        fresh(),
        await signUp(t.app, { firstName: word }),
        fresh(),
        fresh(),
      ];
      const bPost = await post(b, `${word} by b`);
      const mutedPost = await post(muted, `${word} by muted`);
      const aPost = await post(a, `${word} by a`);
      ok(await block(b.user.uid, a));
      ok(await mute(muted.user.uid, muter));
      const search = async (viewer: As, path: string) =>
        ok(await send(t.app, 'GET', path, undefined, as(viewer)));

      const postsFor = async (viewer: As, q: string) =>
        postPageSchema
          .parse(await search(viewer, `/api/search/posts?q=${encodeURIComponent(q)}`))
          .items.map((item) => item.id);
      expect(await postsFor(a, word)).not.toContain(bPost);
      expect(await postsFor(b, word)).not.toContain(aPost);
      expect(await postsFor(a, `from:${b.user.username}`)).toEqual([]);
      expect(await postsFor(muter, word)).not.toContain(mutedPost);
      expect(await postsFor(muter, word)).toEqual(expect.arrayContaining([aPost, bPost]));
      expect(await postsFor(anonymous, word)).toEqual(
        expect.arrayContaining([aPost, bPost, mutedPost]),
      );
      const peopleFor = async (viewer: As) =>
        authorPageSchema
          .pick({ items: true })
          .parse(await search(viewer, `/api/search/people?q=${word}`))
          .items.map((item) => item.uid);
      expect(await peopleFor(a)).toEqual([]);
      expect(await peopleFor(muter)).toEqual([b.user.uid]);
    });

    it('no notifications from someone the recipient blocks or mutes, nor to someone who blocks the actor', async () => {
      const [me, blockedOne, mutedOne, blocker] = [fresh(), fresh(), fresh(), fresh()];
      ok(await block(blockedOne.user.uid, me));
      ok(await mute(mutedOne.user.uid, me));
      ok(await block(me.user.uid, blocker));
      const myPost = await post(me, 'hear me');
      // The muted one comments, likes and mentions; the blocked ones only mention (the rest is refused).
      ok(await comment(mutedOne, myPost, 'a comment'), 201);
      ok(await send(t.app, 'PUT', `/api/posts/${myPost}/like`, undefined, as(mutedOne)));
      ok(await follow(me.user.uid, mutedOne));
      await post(mutedOne, `hello @${me.user.username}`);
      await post(blockedOne, `hello @${me.user.username}`);
      await post(blocker, `hello @${me.user.username}`);
      expect(await notificationsOf(me.user.uid)).toEqual([]);
      // The mentioned blocker hears nothing from me either.
      await post(me, `hello @${blocker.user.username}`);
      expect(await notificationsOf(blocker.user.uid)).toEqual([]);
      // Someone nobody blocks is still heard.
      const friend = fresh();
      await post(friend, `hello @${me.user.username}`);
      expect(await notificationsOf(me.user.uid)).toEqual([
        { kind: 'mention', actorId: friend.user.uid },
      ]);
    });
  });

  describe('hidden authors and live changes', () => {
    it('tells the viewer whom they hide, and both sides’ tabs hear of a block at once', async () => {
      const [a, b, c] = [fresh(), fresh(), fresh()];
      ok(await follow(b.user.uid, a));
      const tabA = await connectRealtime(baseUrl, { cookie: a.cookie });
      const tabB = await connectRealtime(baseUrl, { cookie: b.cookie });
      sockets.push(tabA, tabB);
      const snapshot = async (tab: RealtimeClient, topic: string) => {
        tab.send({ type: 'subscribe', topic });
        const message = await tab.next();
        if (message.type !== 'doc' || message.topic !== topic) {
          throw new Error(`expected the ${topic} snapshot, got ${JSON.stringify(message)}`);
        }
        return message.data;
      };
      const before = relationshipsSignalSchema.parse(
        await snapshot(tabA, relationshipsTopic(a.user.uid)),
      );
      relationshipsSignalSchema.parse(await snapshot(tabB, relationshipsTopic(b.user.uid)));
      await snapshot(tabB, userTopic(b.user.uid));
      // Another account's topic is refused.
      tabA.send({ type: 'subscribe', topic: relationshipsTopic(b.user.uid) });
      expect((await tabA.next()).type).toBe('error');

      ok(await block(b.user.uid, a));
      const docs = async (tab: RealtimeClient) => {
        const messages: ServerMessage[] = await tab.flush();
        return messages.flatMap((m) => (m.type === 'doc' ? [m] : []));
      };
      const seenByA = await docs(tabA);
      const signalA = seenByA.find((m) => m.topic === relationshipsTopic(a.user.uid));
      expect(relationshipsSignalSchema.parse(signalA?.data).revision).not.toBe(before.revision);
      const seenByB = await docs(tabB);
      expect(seenByB.map((m) => m.topic)).toEqual(
        expect.arrayContaining([relationshipsTopic(b.user.uid), userTopic(b.user.uid)]),
      );
      const bDoc = userDocumentSchema.parse(
        seenByB.find((m) => m.topic === userTopic(b.user.uid))?.data,
      );
      expect(bDoc.counts.followers).toBe(0);

      ok(await mute(c.user.uid, a));
      const hidden = hiddenAuthorsSchema.parse(
        ok(await send(t.app, 'GET', '/api/me/hidden-authors', undefined, as(a))),
      );
      expect(hidden.authors.sort()).toEqual([b.user.uid, c.user.uid].sort());
      expect(hidden.truncated).toBe(false);
      const hiddenForB = hiddenAuthorsSchema.parse(
        ok(await send(t.app, 'GET', '/api/me/hidden-authors', undefined, as(b))),
      );
      expect(hiddenForB.authors).toEqual([a.user.uid]);
      // A mute reaches the muter's tabs only.
      expect((await docs(tabA)).some((m) => m.topic === relationshipsTopic(a.user.uid))).toBe(true);
      expect(await docs(tabB)).toEqual([]);
    });
  });
});
