import type { LightMyRequestResponse } from 'fastify';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { limits } from '../../../shared/limits.js';
import { userTopic, type ServerMessage } from '../../../shared/realtime.js';
import {
  followListPageSchema,
  followStateSchema,
  relationshipSchema,
  type FollowListItem,
} from '../../../shared/schemas/follow.js';
import type { Page } from '../../../shared/schemas/post.js';
import { userDocumentSchema, type UserDocument } from '../../../shared/schemas/user.js';
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
import { seededRandom } from '../../test/random.js';

type Person = Awaited<ReturnType<typeof signUp>>;
type As = { cookie: string | undefined };

describe.each(databaseTargets)('follows on $name', (target) => {
  let t: TestApp;
  let database: DatabaseHandle;
  let baseUrl: string;
  let people: Person[];
  /**
   * People who only ever follow others in the list tests: nothing asserts their own counts, so tests share
   * them (each sign-up costs a password hash).
   */
  let crowd: Person[];
  /** Was deactivated before the tests. */
  let inactive: Person;
  let admin: Person;
  /** Hands out fresh, active people, so each test starts from zero follows. */
  let nextPerson = 0;
  const sockets: RealtimeClient[] = [];
  const anonymous: As = { cookie: undefined };

  const fresh = (): Person => {
    const person = people[nextPerson];
    nextPerson += 1;
    if (!person) throw new Error('ran out of people: sign more up in beforeAll');
    return person;
  };

  const follow = (uid: string, as: As) =>
    send(t.app, 'PUT', `/api/users/${uid}/follow`, undefined, { cookie: as.cookie });
  const unfollow = (uid: string, as: As) =>
    send(t.app, 'DELETE', `/api/users/${uid}/follow`, undefined, { cookie: as.cookie });

  function stateOf(response: LightMyRequestResponse) {
    expect(response.statusCode, response.body).toBe(200);
    return followStateSchema.parse(response.json());
  }

  async function countsOf(uid: string): Promise<UserDocument['counts']> {
    const response = await send(t.app, 'GET', `/api/users/${uid}`);
    expect(response.statusCode, response.body).toBe(200);
    return userDocumentSchema.parse(response.json()).counts;
  }

  async function relationship(uid: string, as: As) {
    const response = await send(t.app, 'GET', `/api/users/${uid}/relationship`, undefined, {
      cookie: as.cookie,
    });
    expect(response.statusCode, response.body).toBe(200);
    return relationshipSchema.parse(response.json());
  }

  async function list(
    uid: string,
    which: 'followers' | 'following',
    query = '',
    cookie?: string,
  ): Promise<Page<FollowListItem>> {
    const response = await send(t.app, 'GET', `/api/users/${uid}/${which}${query}`, undefined, {
      cookie,
    });
    expect(response.statusCode, response.body).toBe(200);
    return followListPageSchema.parse(response.json());
  }

  /** Follow rows straight from the database, as follower → followee pairs. */
  async function pairsOf(uids: string[]): Promise<string[]> {
    const rows = await database.db
      .selectFrom('follows')
      .select(['followerId', 'followeeId'])
      .where((eb) => eb.or([eb('followerId', 'in', uids), eb('followeeId', 'in', uids)]))
      .orderBy('id')
      .execute();
    return rows.map((row) => `${row.followerId}→${row.followeeId}`);
  }

  /** Each user's stored counters agree with the follow rows. */
  async function expectCountersExact(uids: string[]) {
    for (const uid of uids) {
      const [user, followers, following] = await Promise.all([
        database.db
          .selectFrom('users')
          .select(['followerCount', 'followingCount'])
          .where('id', '=', uid)
          .executeTakeFirstOrThrow(),
        database.db.selectFrom('follows').select('id').where('followeeId', '=', uid).execute(),
        database.db.selectFrom('follows').select('id').where('followerId', '=', uid).execute(),
      ]);
      expect(user, uid).toEqual({
        followerCount: followers.length,
        followingCount: following.length,
      });
    }
  }

  beforeAll(async () => {
    t = await createTestApp(target);
    database = openAppDatabase(t);
    baseUrl = await listen(t);
    // Sign-ups hash passwords on the thread pool, so a few at a time cost little more than one; all 37 at
    // once would queue past the pool's connection timeout on a busy machine and answer 503.
    const everyone: Awaited<ReturnType<typeof signUp>>[] = [];
    while (everyone.length < 37) {
      const batch = Math.min(8, 37 - everyone.length);
      everyone.push(...(await Promise.all(Array.from({ length: batch }, () => signUp(t.app)))));
    }
    crowd = everyone.slice(0, 6);
    people = everyone.slice(6);
    inactive = fresh();
    admin = fresh();
    await t.app.services.users.setActive(inactive.user.username, false);
    await t.app.services.users.setRole(admin.user.username, 'admin');
  });
  afterEach(async () => {
    await Promise.all(sockets.splice(0).map((client) => client.close()));
  });
  afterAll(async () => {
    await database.close();
    await t.close();
  });

  describe('follow and unfollow', () => {
    it('follows and unfollows idempotently, keeping both counts', async () => {
      const [fan, star] = [fresh(), fresh()];
      expect(stateOf(await follow(star.user.uid, fan))).toEqual({
        following: true,
        followerCount: 1,
      });
      expect(stateOf(await follow(star.user.uid, fan))).toEqual({
        following: true,
        followerCount: 1,
      });
      expect(await countsOf(star.user.uid)).toMatchObject({ followers: 1, following: 0 });
      expect(await countsOf(fan.user.uid)).toMatchObject({ followers: 0, following: 1 });
      expect(await pairsOf([fan.user.uid])).toEqual([`${fan.user.uid}→${star.user.uid}`]);

      expect(stateOf(await unfollow(star.user.uid, fan))).toEqual({
        following: false,
        followerCount: 0,
      });
      expect(stateOf(await unfollow(star.user.uid, fan))).toEqual({
        following: false,
        followerCount: 0,
      });
      expect(await countsOf(star.user.uid)).toMatchObject({ followers: 0, following: 0 });
      expect(await countsOf(fan.user.uid)).toMatchObject({ followers: 0, following: 0 });
      expect(await pairsOf([fan.user.uid, star.user.uid])).toEqual([]);
    });

    it('authorisation matrix: each active person changes only their own follows', async () => {
      const [owner, other, star] = [fresh(), fresh(), fresh()];
      const uids = [owner.user.uid, other.user.uid, star.user.uid, admin.user.uid];
      expect(stateOf(await follow(star.user.uid, owner)).followerCount).toBe(1);
      const pairs = await pairsOf(uids);

      // Someone else unfollowing the star does not end the owner's follow.
      expect(stateOf(await unfollow(star.user.uid, other))).toEqual({
        following: false,
        followerCount: 1,
      });
      expect(await pairsOf(uids)).toEqual(pairs);

      expectError(await follow(star.user.uid, anonymous), 401, 'unauthenticated');
      expectError(await unfollow(star.user.uid, anonymous), 401, 'unauthenticated');
      expect(await pairsOf(uids)).toEqual(pairs);

      expectError(await follow(star.user.uid, inactive), 403, 'account_inactive');
      expect(await pairsOf([inactive.user.uid])).toEqual([]);
      expect(await countsOf(star.user.uid)).toMatchObject({ followers: 1 });

      // An administrator follows for themselves, like anyone, and cannot end another's follow.
      expect(stateOf(await follow(star.user.uid, admin)).followerCount).toBe(2);
      expect(stateOf(await unfollow(star.user.uid, admin)).followerCount).toBe(1);
      expect(await pairsOf(uids)).toEqual(pairs);

      expect(stateOf(await unfollow(star.user.uid, owner)).followerCount).toBe(0);
      expect(await pairsOf(uids)).toEqual([]);
      await expectCountersExact(uids);
    });

    it('an inactive person can neither follow nor unfollow, and their follows stay as they were', async () => {
      const [person, star] = [fresh(), fresh()];
      expect(stateOf(await follow(star.user.uid, person)).following).toBe(true);
      await t.app.services.users.setActive(person.user.username, false);
      try {
        expectError(await unfollow(star.user.uid, person), 403, 'account_inactive');
        expectError(await follow(admin.user.uid, person), 403, 'account_inactive');
        expect(await pairsOf([person.user.uid])).toEqual([`${person.user.uid}→${star.user.uid}`]);
        expect(await countsOf(person.user.uid)).toMatchObject({ following: 1 });
      } finally {
        await t.app.services.users.setActive(person.user.username, true);
      }
    });

    it('refuses following or unfollowing oneself with a clear 400', async () => {
      const person = fresh();
      const error = expectError(await follow(person.user.uid, person), 400, 'validation_failed');
      expect(error.message).toMatch(/yourself/);
      expectError(await unfollow(person.user.uid, person), 400, 'validation_failed');
      expect(await countsOf(person.user.uid)).toMatchObject({ followers: 0, following: 0 });
      expect(await pairsOf([person.user.uid])).toEqual([]);
    });

    it('answers 404 for an unknown user and 400 for a malformed id', async () => {
      const person = fresh();
      expectError(await follow('no-such-user', person), 404, 'not_found');
      expectError(await unfollow('no-such-user', person), 404, 'not_found');
      expectError(await follow('bad%20id', person), 400, 'validation_failed', 'uid');
      expectError(await follow('x'.repeat(65), person), 400, 'validation_failed', 'uid');
      expect(await countsOf(person.user.uid)).toMatchObject({ following: 0 });
    });

    it('keeps exact counts when the same follow arrives many times at once, and two people follow each other at once', async () => {
      const [a, b, c] = [fresh(), fresh(), fresh()];
      const answers = await Promise.all([
        ...Array.from({ length: 6 }, () => follow(b.user.uid, a)),
        ...Array.from({ length: 6 }, () => follow(a.user.uid, b)),
        follow(a.user.uid, c),
        follow(b.user.uid, c),
      ]);
      for (const answer of answers) expect(stateOf(answer).following).toBe(true);
      expect(await countsOf(a.user.uid)).toMatchObject({ followers: 2, following: 1 });
      expect(await countsOf(b.user.uid)).toMatchObject({ followers: 2, following: 1 });
      await expectCountersExact([a.user.uid, b.user.uid, c.user.uid]);

      await Promise.all([
        ...Array.from({ length: 6 }, () => unfollow(b.user.uid, a)),
        ...Array.from({ length: 6 }, () => unfollow(a.user.uid, b)),
      ]);
      expect(await countsOf(a.user.uid)).toMatchObject({ followers: 1, following: 0 });
      await expectCountersExact([a.user.uid, b.user.uid, c.user.uid]);
    });

    it("a deleted account's follows go with it, and following it answers 404", async () => {
      const [fan, leaving] = [fresh(), fresh()];
      expect(stateOf(await follow(leaving.user.uid, fan)).following).toBe(true);
      expect(stateOf(await follow(fan.user.uid, leaving)).following).toBe(true);
      const deleted = await send(
        t.app,
        'POST',
        '/api/account/delete',
        { password: leaving.input.password },
        { cookie: leaving.cookie },
      );
      expect(deleted.statusCode, deleted.body).toBe(200);
      expect(await pairsOf([fan.user.uid])).toEqual([]);
      expect(await countsOf(fan.user.uid)).toMatchObject({ followers: 0, following: 0 });
      await expectCountersExact([fan.user.uid]);
      expectError(await follow(leaving.user.uid, fan), 404, 'not_found');
      expectError(await unfollow(leaving.user.uid, fan), 404, 'not_found');
      expectError(
        await send(t.app, 'GET', `/api/users/${leaving.user.uid}/followers`),
        404,
        'not_found',
      );
    });
  });

  describe('relationship', () => {
    it('tells the viewer whether they follow and are followed; anonymous and self see neither', async () => {
      const [a, b] = [fresh(), fresh()];
      expect(await relationship(b.user.uid, a)).toEqual({ following: false, followedBy: false });
      await follow(b.user.uid, a);
      expect(await relationship(b.user.uid, a)).toEqual({ following: true, followedBy: false });
      expect(await relationship(a.user.uid, b)).toEqual({ following: false, followedBy: true });
      await follow(a.user.uid, b);
      expect(await relationship(b.user.uid, a)).toEqual({ following: true, followedBy: true });
      expect(await relationship(b.user.uid, anonymous)).toEqual({
        following: false,
        followedBy: false,
      });
      expect(await relationship(a.user.uid, a)).toEqual({ following: false, followedBy: false });
      // An inactive viewer may still read.
      expect(await relationship(a.user.uid, inactive)).toEqual({
        following: false,
        followedBy: false,
      });
    });

    it('answers 404 for an unknown user and 400 for a malformed id', async () => {
      expectError(
        await send(t.app, 'GET', '/api/users/no-such-user/relationship'),
        404,
        'not_found',
      );
      expectError(
        await send(t.app, 'GET', '/api/users/bad%20id/relationship'),
        400,
        'validation_failed',
      );
    });
  });

  describe('lists', () => {
    it('lists followers and following newest first, with authors, and pages them', async () => {
      const star = fresh();
      const fans = crowd.slice(0, 5);
      for (const fan of fans) await follow(star.user.uid, fan);
      for (const fan of fans.slice(0, 2)) await follow(fan.user.uid, star);

      const page1 = await list(star.user.uid, 'followers', '?limit=2');
      expect(page1.items.map((item) => item.uid)).toEqual([fans[4]?.user.uid, fans[3]?.user.uid]);
      expect(page1.items[0]).toEqual({
        uid: fans[4]?.user.uid,
        username: fans[4]?.user.username,
        firstName: 'Ada',
        lastName: 'Lovelace',
        displayName: null,
        avatarThumb: null,
        active: true,
        relationship: null,
      });
      expect(page1.nextCursor).not.toBeNull();
      const page2 = await list(star.user.uid, 'followers', `?limit=2&cursor=${page1.nextCursor}`);
      expect(page2.items.map((item) => item.uid)).toEqual([fans[2]?.user.uid, fans[1]?.user.uid]);
      const page3 = await list(star.user.uid, 'followers', `?limit=2&cursor=${page2.nextCursor}`);
      expect(page3).toEqual({
        items: [expect.objectContaining({ uid: fans[0]?.user.uid })],
        nextCursor: null,
      });

      const following = await list(star.user.uid, 'following');
      expect(following).toEqual({
        items: [
          expect.objectContaining({ uid: fans[1]?.user.uid }),
          expect.objectContaining({ uid: fans[0]?.user.uid }),
        ],
        nextCursor: null,
      });
      expect(await list(fans[4]?.user.uid ?? '', 'followers')).toEqual({
        items: [],
        nextCursor: null,
      });
    });

    it('says, row by row, how the signed-in viewer relates to each person listed', async () => {
      const star = fresh();
      const viewer = fresh();
      const [mutual, followedOnly, follower, stranger] = [fresh(), fresh(), fresh(), fresh()];
      for (const person of [viewer, mutual, followedOnly, follower, stranger]) {
        await follow(star.user.uid, person);
      }
      await follow(mutual.user.uid, viewer);
      await follow(viewer.user.uid, mutual);
      await follow(followedOnly.user.uid, viewer);
      await follow(viewer.user.uid, follower);

      const relationshipOf = (items: FollowListItem[]) =>
        Object.fromEntries(items.map((item) => [item.uid, item.relationship]));
      const signedIn = await list(star.user.uid, 'followers', '', viewer.cookie);
      expect(relationshipOf(signedIn.items)).toEqual({
        [viewer.user.uid]: null,
        [mutual.user.uid]: { following: true, followedBy: true },
        [followedOnly.user.uid]: { following: true, followedBy: false },
        [follower.user.uid]: { following: false, followedBy: true },
        [stranger.user.uid]: { following: false, followedBy: false },
      });
      const signedOut = await list(star.user.uid, 'followers');
      expect(signedOut.items.every((item) => item.relationship === null)).toBe(true);
    });

    it('shows an inactive follower as inactive', async () => {
      const star = fresh();
      const fan = crowd[5] ?? fresh();
      await follow(star.user.uid, fan);
      await t.app.services.users.setActive(fan.user.username, false);
      try {
        expect((await list(star.user.uid, 'followers')).items).toEqual([
          expect.objectContaining({ uid: fan.user.uid, active: false }),
        ]);
      } finally {
        await t.app.services.users.setActive(fan.user.username, true);
      }
    });

    it('answers 404 for an unknown user and 400 for malformed ids, cursors and limits', async () => {
      for (const which of ['followers', 'following']) {
        expectError(await send(t.app, 'GET', `/api/users/no-such-user/${which}`), 404, 'not_found');
        for (const query of ['?cursor=abc', '?limit=0', `?limit=${limits.page.max + 1}`]) {
          expectError(
            await send(t.app, 'GET', `/api/users/${admin.user.uid}/${which}${query}`),
            400,
            'validation_failed',
          );
        }
      }
    });

    it.each([1, 2, 3])(
      'pages followers without skipping or repeating while people follow and unfollow (seed %i)',
      async (seed) => {
        const { next } = seededRandom(seed);
        const star = fresh();
        const candidates = [...crowd, admin];
        const initially = 3;
        const following = new Set<string>();
        for (const fan of candidates.slice(0, initially)) {
          await follow(star.user.uid, fan);
          following.add(fan.user.uid);
        }
        const atStart = new Set(following);
        const left = new Set<string>();

        const seen: string[] = [];
        let cursor: string | null = null;
        const limit = 1 + Math.floor(next() * 2);
        for (let pages = 0; ; pages += 1) {
          expect(pages).toBeLessThan(100);
          const page = await list(
            star.user.uid,
            'followers',
            `?limit=${limit}${cursor ? `&cursor=${cursor}` : ''}`,
          );
          seen.push(...page.items.map((item) => item.uid));
          if (page.nextCursor === null) break;
          cursor = page.nextCursor;
          // Meanwhile: newcomers follow (they land before the cursor), and someone may leave.
          const newcomer =
            candidates[initially + Math.floor(next() * (candidates.length - initially))];
          if (newcomer && !following.has(newcomer.user.uid)) {
            await follow(star.user.uid, newcomer);
            following.add(newcomer.user.uid);
          }
          if (next() < 0.3) {
            const leaving = [...atStart].filter((uid) => !left.has(uid))[0];
            const person = candidates.find((candidate) => candidate.user.uid === leaving);
            if (person) {
              await unfollow(star.user.uid, person);
              left.add(person.user.uid);
            }
          }
        }

        expect(new Set(seen).size, 'nobody is listed twice').toBe(seen.length);
        // Everyone who followed before paging began, and still does, is listed.
        const missing = [...atStart].filter((uid) => !left.has(uid) && !seen.includes(uid));
        expect(missing).toEqual([]);
        await expectCountersExact([star.user.uid]);
        for (const uid of following) {
          const fan = candidates.find((candidate) => candidate.user.uid === uid);
          if (fan) await unfollow(star.user.uid, fan);
        }
      },
    );
  });

  describe('live updates', () => {
    /** The counts each user document carried, by topic, among the messages a socket received. */
    const countsByTopic = (messages: ServerMessage[]) =>
      Object.fromEntries(
        messages.map((message) => {
          if (message.type !== 'doc') throw new Error(`expected a document, got ${message.type}`);
          return [message.topic, userDocumentSchema.parse(message.data).counts];
        }),
      );

    it('a follow and an unfollow send both users their new counts', async () => {
      const [fan, star] = [fresh(), fresh()];
      const client = await connectRealtime(baseUrl);
      sockets.push(client);
      for (const uid of [star.user.uid, fan.user.uid]) {
        client.send({ type: 'subscribe', topic: userTopic(uid) });
        expect(await client.next()).toMatchObject({ type: 'doc', topic: userTopic(uid) });
      }

      expect(stateOf(await follow(star.user.uid, fan)).following).toBe(true);
      expect(countsByTopic(await client.flush())).toEqual({
        [userTopic(star.user.uid)]: { posts: 0, followers: 1, following: 0 },
        [userTopic(fan.user.uid)]: { posts: 0, followers: 0, following: 1 },
      });

      // Following again changes nothing, so nothing is sent.
      expect(stateOf(await follow(star.user.uid, fan)).following).toBe(true);
      expect(await client.flush()).toEqual([]);

      expect(stateOf(await unfollow(star.user.uid, fan)).following).toBe(false);
      expect(countsByTopic(await client.flush())).toEqual({
        [userTopic(star.user.uid)]: { posts: 0, followers: 0, following: 0 },
        [userTopic(fan.user.uid)]: { posts: 0, followers: 0, following: 0 },
      });
    });
  });
});
