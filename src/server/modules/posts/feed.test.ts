import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { extractHashtags } from '../../../shared/hashtags.js';
import { limits } from '../../../shared/limits.js';
import {
  postPageSchema,
  postViewSchema,
  type Page,
  type PostView,
} from '../../../shared/schemas/post.js';
import { userDocumentSchema } from '../../../shared/schemas/user.js';
import type { DatabaseHandle } from '../../db/database.js';
import {
  createTestApp,
  databaseTargets,
  openAppDatabase,
  send,
  signUp,
  type TestApp,
} from '../../test/harness.js';
import { seededRandom, type Random } from '../../test/random.js';
import { followingIndexThreshold } from './posts.repository.js';

/**
 * Property-style tests of keyset pagination: whatever the feed, the page sizes and the posts written or
 * deleted between two page requests, a walk returns every post that existed when it started exactly once,
 * newest first, never one written after it started, and `after` then finds exactly the new ones.
 */

type Person = Awaited<ReturnType<typeof signUp>>;

type Feed =
  | { kind: 'everyone' }
  | { kind: 'tag'; tag: string }
  | { kind: 'following' }
  | { kind: 'profile'; author: Person };

/** What the test knows of a live post: enough to say which feeds show it. */
interface ModelPost {
  authorId: string;
  tags: string[];
}

const tagPool = ['garden', 'hearth', 'news'] as const;
/** Posts written before the walks below the threshold: a few authors, some hashtags. */
const initialPosts = 100;
const runsBelowThreshold = 20;
const runsAboveThreshold = 4;
/** Posts added once the Following feed crossed the threshold, so deletions never bring it back below. */
const aboveThresholdMargin = 300;
/**
 * Page requests a walk may take at most, which sets the smallest page size tried on a long feed (short
 * feeds are walked one post at a time): keeps the suite quick while every walk still crosses many pages.
 */
const maxPagesAtRest = 30;
const maxPagesWhileWriting = 12;
/** Rows per INSERT when seeding many posts straight into the database. */
const insertChunk = 500;

const byNewest = (a: string, b: string) => Number(b) - Number(a);
const describeFeed = (feed: Feed) =>
  feed.kind === 'tag' ? `#${feed.tag}` : feed.kind === 'profile' ? 'a profile' : feed.kind;

describe.each(databaseTargets)('feed pagination on $name', (target) => {
  let t: TestApp;
  let db: DatabaseHandle;
  /** Follows `alice` and `bob`; reads the Following feed. */
  let viewer: Person;
  let alice: Person;
  let bob: Person;
  /** Followed by no one: never in the viewer's Following feed. */
  let carol: Person;
  let people: Person[];
  const model = new Map<string, ModelPost>();
  let written = 0;

  beforeAll(async () => {
    // Hundreds of posts per author: the per-account posting limit has its own test.
    t = await createTestApp(target, { RATE_LIMITS: 'off' });
    db = openAppDatabase(t);
    [viewer, alice, bob, carol] = await Promise.all([
      signUp(t.app),
      signUp(t.app),
      signUp(t.app),
      signUp(t.app),
    ]);
    people = [viewer, alice, bob, carol];
    await follow(viewer, alice);
    await follow(viewer, bob);
    const random = seededRandom(0x5eed);
    await insertDirectly(
      Array.from({ length: initialPosts }, () => ({
        author: random.pick(people),
        body: bodyFor(random),
      })),
    );
  });
  afterAll(async () => {
    await db.close();
    await t.close();
  });

  // --- writing posts -------------------------------------------------------------------------------

  /** A unique text, with one of a few hashtags (in any case) now and then. */
  function bodyFor(random: Random): string {
    written += 1;
    if (!random.chance(0.4)) return `Post number ${written}`;
    const tag = random.pick(tagPool);
    const spelled = random.chance(0.5) ? tag.toUpperCase() : tag;
    return `Post number ${written} about #${spelled}`;
  }

  /** `follower` follows `followee` through the follows API. */
  async function follow(follower: Person, followee: Person) {
    const response = await send(t.app, 'PUT', `/api/users/${followee.user.uid}/follow`, undefined, {
      cookie: follower.cookie,
    });
    expect(response.statusCode, response.body).toBe(200);
  }

  /**
   * Seeds many posts in one transaction, in the given order, keeping the authors' post counts right (the
   * Following feed picks its strategy from them) and the hashtags in post_tags.
   */
  async function insertDirectly(posts: { author: Person; body: string }[]) {
    const createdAt = new Date().toISOString();
    await db.db.transaction().execute(async (trx) => {
      for (let start = 0; start < posts.length; start += insertChunk) {
        const rows = await trx
          .insertInto('posts')
          .values(
            posts
              .slice(start, start + insertChunk)
              .map(({ author, body }) => ({ authorId: author.user.uid, body, createdAt })),
          )
          .returning(['id', 'authorId', 'body'])
          .execute();
        const tags = rows.flatMap((row) =>
          extractHashtags(row.body).map((tag) => ({ tag, postId: row.id })),
        );
        if (tags.length > 0) await trx.insertInto('post_tags').values(tags).execute();
        for (const row of rows) {
          model.set(String(row.id), { authorId: row.authorId, tags: extractHashtags(row.body) });
        }
      }
      for (const person of people) {
        const count = posts.filter(({ author }) => author === person).length;
        if (count === 0) continue;
        await trx
          .updateTable('users')
          .set((eb) => ({ postCount: eb('postCount', '+', count) }))
          .where('id', '=', person.user.uid)
          .execute();
      }
    });
  }

  async function createThroughApi(author: Person, body: string): Promise<string> {
    const response = await send(t.app, 'POST', '/api/posts', { body }, { cookie: author.cookie });
    expect(response.statusCode, response.body).toBe(201);
    const post = postViewSchema.parse(response.json());
    model.set(post.id, { authorId: author.user.uid, tags: extractHashtags(body) });
    return post.id;
  }

  async function deleteThroughApi(postId: string) {
    const authorId = model.get(postId)?.authorId;
    const author = people.find((person) => person.user.uid === authorId);
    const response = await send(t.app, 'DELETE', `/api/posts/${postId}`, undefined, {
      cookie: author?.cookie,
    });
    expect(response.statusCode, response.body).toBe(204);
    model.delete(postId);
  }

  // --- reading feeds -------------------------------------------------------------------------------

  const followed = () => new Set([viewer.user.uid, alice.user.uid, bob.user.uid]);

  function shows(feed: Feed, post: ModelPost): boolean {
    switch (feed.kind) {
      case 'everyone':
        return true;
      case 'tag':
        return post.tags.includes(feed.tag);
      case 'following':
        return followed().has(post.authorId);
      case 'profile':
        return post.authorId === feed.author.user.uid;
    }
  }

  /** Ids of the live posts `feed` shows, newest first, according to the model. */
  const expectedIds = (feed: Feed) =>
    [...model.entries()]
      .filter(([, post]) => shows(feed, post))
      .map(([id]) => id)
      .sort(byNewest);

  function urlOf(feed: Feed, query: Record<string, string | number | undefined>): string {
    const params = new URLSearchParams();
    for (const [key, value] of Object.entries(query)) {
      if (value !== undefined) params.set(key, String(value));
    }
    switch (feed.kind) {
      case 'everyone':
        break;
      case 'tag':
        // Any spelling of the tag finds the same posts.
        params.set('tag', feed.tag.toUpperCase());
        break;
      case 'following':
        params.set('tab', 'following');
        break;
      case 'profile':
        return `/api/users/${feed.author.user.uid}/posts?${params.toString()}`;
    }
    return `/api/feed?${params.toString()}`;
  }

  async function fetchPage(
    feed: Feed,
    query: Record<string, string | number | undefined>,
    cookie: string | undefined,
  ): Promise<Page<PostView>> {
    const url = urlOf(feed, query);
    const response = await send(t.app, 'GET', url, undefined, { cookie });
    expect(response.statusCode, `${url}: ${response.body}`).toBe(200);
    return postPageSchema.parse(response.json());
  }

  /** Sum of the post counts the Following feed reads to choose how to find the viewer's posts. */
  async function followingTotal(): Promise<number> {
    const rows = await db.db
      .selectFrom('users')
      .select('postCount')
      .where('id', 'in', [...followed()])
      .execute();
    return rows.reduce((sum, row) => sum + row.postCount, 0);
  }

  /** Posts written and deleted while a walk was under way. */
  interface Changes {
    inserted: string[];
    deleted: Set<string>;
  }

  interface WalkOptions {
    /** The page size of each request; undefined leaves it to the server's default. */
    limit: () => number | undefined;
    /** Writes and deletes posts between two page requests; `cursor` names the last post read. */
    between?: (changes: Changes, cursor: string) => Promise<void>;
  }

  /**
   * Walks `feed` to its end and checks the properties: pages in order without gaps or repeats, no post
   * newer than the walk, every post that lived through it, full pages before the last, a cursor naming
   * the last item; then `after` the walk's start finds exactly the posts written during it.
   */
  async function walkAndCheck(feed: Feed, label: string, options: WalkOptions) {
    const cookie = feed.kind === 'following' ? viewer.cookie : undefined;
    const before = expectedIds(feed);
    const head = [...model.keys()].sort(byNewest)[0];
    const changes: Changes = { inserted: [], deleted: new Set() };
    const seen: string[] = [];
    let cursor: string | null = null;
    let pages = 0;
    do {
      if (cursor !== null) await options.between?.(changes, cursor);
      const limit = options.limit();
      const page = await fetchPage(feed, { limit, cursor: cursor ?? undefined }, cookie);
      const size = limit ?? limits.page.default;
      expect(page.items.length, label).toBeLessThanOrEqual(size);
      if (page.nextCursor !== null) {
        expect(page.items.length, `${label}: a page before the last is full`).toBe(size);
        expect(page.nextCursor, label).toBe(page.items.at(-1)?.id);
      } else if (pages > 0) {
        expect(page.items.length, `${label}: no empty last page`).toBeGreaterThan(0);
      }
      seen.push(...page.items.map((post) => post.id));
      cursor = page.nextCursor;
      pages += 1;
    } while (cursor !== null);

    expect(seen, `${label}: newest first, each once`).toEqual([...seen].sort(byNewest));
    expect(new Set(seen).size, `${label}: no post twice`).toBe(seen.length);
    const existedBefore = new Set(before);
    expect(
      seen.filter((id) => !existedBefore.has(id)),
      `${label}: nothing newer than the walk, nothing from outside the feed`,
    ).toEqual([]);
    const seenIds = new Set(seen);
    expect(
      before.filter((id) => !changes.deleted.has(id) && !seenIds.has(id)),
      `${label}: nothing skipped`,
    ).toEqual([]);
    if (changes.deleted.size === 0) expect(seen, label).toEqual(before);

    if (feed.kind !== 'profile' && head !== undefined) {
      const newer = await fetchPage(feed, { after: head, limit: limits.newPostsMax }, cookie);
      const written = changes.inserted
        .filter((id) => {
          const post = model.get(id);
          return post !== undefined && shows(feed, post);
        })
        .sort(byNewest)
        .slice(0, limits.newPostsMax);
      expect(
        newer.items.map((post) => post.id),
        `${label}: after the start`,
      ).toEqual(written);
      expect(newer.nextCursor).toBeNull();
    }
    return { seen, pages };
  }

  /** Random writes and deletions between page requests, by random authors. */
  const randomChanges = (random: Random) => async (changes: Changes, cursor: string) => {
    if (random.chance(0.35)) {
      for (let count = random.int(1, 3); count > 0; count -= 1) {
        changes.inserted.push(await createThroughApi(random.pick(people), bodyFor(random)));
      }
    }
    if (random.chance(0.25)) {
      // Now and then the very post the cursor names: the next page must still follow on from it.
      const victim =
        random.chance(0.3) && model.has(cursor) ? cursor : random.pick([...model.keys()]);
      await deleteThroughApi(victim);
      changes.deleted.add(victim);
    }
  };

  function randomFeed(random: Random, followingWeight: number): Feed {
    if (random.chance(followingWeight)) return { kind: 'following' };
    return random.pick<Feed>([
      { kind: 'everyone' },
      { kind: 'tag', tag: random.pick(tagPool) },
      { kind: 'profile', author: random.pick(people) },
    ]);
  }

  /** Post counts on the profiles agree with what was written and deleted. */
  async function expectCountsMatch() {
    for (const person of people) {
      const response = await send(t.app, 'GET', `/api/users/${person.user.uid}`);
      const counts = userDocumentSchema.parse(response.json()).counts;
      const expected = [...model.values()].filter((post) => post.authorId === person.user.uid);
      expect(counts.posts).toBe(expected.length);
    }
  }

  // --- the properties ------------------------------------------------------------------------------

  describe('with few posts by the people followed (the author index)', () => {
    it('walks every feed exactly at rest, with every page size from 1 to the maximum', async () => {
      expect(await followingTotal()).toBeLessThanOrEqual(followingIndexThreshold);
      const feeds: Feed[] = [
        { kind: 'everyone' },
        { kind: 'following' },
        ...tagPool.map((tag): Feed => ({ kind: 'tag', tag })),
        ...people.map((author): Feed => ({ kind: 'profile', author })),
      ];
      for (const feed of feeds) {
        const size = expectedIds(feed).length;
        for (const limit of [1, 2, 7, limits.page.default, limits.page.max, undefined]) {
          if (size / (limit ?? limits.page.default) > maxPagesAtRest) continue;
          await walkAndCheck(feed, `${describeFeed(feed)} by ${limit}`, { limit: () => limit });
        }
      }
    });

    it.each(Array.from({ length: runsBelowThreshold }, (_, run) => run + 1))(
      'random run %i: a walk with posts written and deleted between pages',
      async (seed) => {
        const random = seededRandom(seed);
        const feed = randomFeed(random, 0.4);
        // Page sizes that make a walk of at least two pages and at most maxPagesWhileWriting.
        const size = expectedIds(feed).length;
        const smallest = Math.max(1, Math.ceil(size / maxPagesWhileWriting));
        const largest = Math.min(limits.page.max, Math.max(smallest, Math.ceil(size / 2)));
        const fixed = random.int(smallest, largest);
        const varying = random.chance(0.5);
        const pageSize = () => (varying ? random.int(smallest, largest) : fixed);
        if (feed.kind === 'following') {
          expect(await followingTotal()).toBeLessThanOrEqual(followingIndexThreshold);
        }
        await walkAndCheck(feed, `seed ${seed}, ${describeFeed(feed)}`, {
          limit: pageSize,
          between: randomChanges(random),
        });
      },
    );

    it('keeps the post counts in step with the posts', async () => {
      await expectCountsMatch();
    });
  });

  describe('with many posts by the people followed (the walk by id)', () => {
    it('stays exact while the Following feed crosses the threshold between two pages', async () => {
      const random = seededRandom(0xc0ffee);
      const missing = followingIndexThreshold - 1 - (await followingTotal());
      expect(missing).toBeGreaterThan(0);
      // Followees' posts with strangers' in between, so the walk by id has rows to skip.
      await insertDirectly(
        Array.from({ length: missing + Math.floor(missing / 4) }, (_, index) => ({
          author: index % 5 === 4 ? carol : random.pick([alice, bob, viewer]),
          body: bodyFor(random),
        })),
      );
      expect(await followingTotal()).toBe(followingIndexThreshold - 1);

      let crossed = false;
      await walkAndCheck({ kind: 'following' }, 'crossing the threshold', {
        limit: () => random.int(40, limits.page.max),
        between: async (changes) => {
          if (crossed) return;
          crossed = true;
          changes.inserted.push(await createThroughApi(alice, bodyFor(random)));
          changes.inserted.push(await createThroughApi(bob, bodyFor(random)));
          expect(await followingTotal()).toBeGreaterThan(followingIndexThreshold);
        },
      });
      expect(crossed).toBe(true);
    });

    it('adds more posts by the people followed, well above the threshold', async () => {
      const random = seededRandom(0xfeed);
      await insertDirectly(
        Array.from({ length: aboveThresholdMargin }, (_, index) => ({
          author: index % 3 === 2 ? carol : random.pick([alice, bob]),
          body: bodyFor(random),
        })),
      );
      expect(await followingTotal()).toBeGreaterThan(
        followingIndexThreshold + aboveThresholdMargin / 2,
      );
    });

    it.each(Array.from({ length: runsAboveThreshold }, (_, run) => 1000 + run))(
      'random run %i: a walk with posts written and deleted between pages',
      async (seed) => {
        const random = seededRandom(seed);
        const feed = randomFeed(random, 0.6);
        if (feed.kind === 'following') {
          expect(await followingTotal()).toBeGreaterThan(followingIndexThreshold);
        }
        await walkAndCheck(feed, `seed ${seed}, ${describeFeed(feed)}`, {
          limit: () => random.int(40, limits.page.max),
          between: randomChanges(random),
        });
      },
    );

    it('keeps the post counts in step with the posts', async () => {
      await expectCountsMatch();
    });
  });
});
