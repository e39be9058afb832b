import { Migrator, sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { DatabaseHandle } from '../database.js';
import { migrateToLatest } from '../migrator.js';
import { migrationProvider } from './index.js';
import { capturing, indexesOf, planOf } from './plans.js';
import { NotificationsRepository } from '../../modules/notifications/notifications.repository.js';
import {
  createTestApp,
  databaseTargets,
  openAppDatabase,
  send,
  signUp,
  type TestApp,
} from '../../test/harness.js';

type Person = Awaited<ReturnType<typeof signUp>>;

describe.each(databaseTargets)('migration 0013 on $name: like groups by post', (target) => {
  let t: TestApp;
  let handle: DatabaseHandle;
  let author: Person;
  let postId: string;

  const call = async (method: 'POST' | 'PUT', url: string, who: Person, body?: object) => {
    const response = await send(t.app, method, url, body, { cookie: who.cookie });
    expect(response.statusCode, response.body).toBeLessThan(300);
    return response;
  };

  /**
   * How many entries the group index holds, read off its leaf pages (SQLite's `dbstat`); PostgreSQL's
   * index pages are not readable without an extension, and its index is checked by its definition.
   */
  async function groupIndexEntries(): Promise<number | undefined> {
    if (target.name === 'postgres') return undefined;
    const { rows } = await sql<{ entries: number }>`
      SELECT sum(ncell) AS entries FROM dbstat
      WHERE name = 'notifications_group_idx' AND pagetype = 'leaf'`.execute(handle.db);
    return rows[0]?.entries ?? 0;
  }

  /** What the group index should hold: the follows, and every notification before the migration. */
  async function rowsOf(which: 'follows' | 'all'): Promise<number | undefined> {
    if (target.name === 'postgres') return undefined;
    let query = handle.db.selectFrom('notifications').select((eb) => eb.fn.countAll().as('n'));
    if (which === 'follows') query = query.where('kind', '=', 'follow');
    return Number((await query.executeTakeFirstOrThrow()).n);
  }

  beforeAll(async () => {
    t = await createTestApp(target);
    handle = openAppDatabase(t);
    // With a few rows, PostgreSQL would read the whole table whatever its indexes: a plan that names an
    // index then says that the index can answer the query, which is what these tests ask.
    if (target.name === 'postgres') await sql`SET enable_seqscan = off`.execute(handle.db);
    author = await signUp(t.app);
    const fans = [await signUp(t.app), await signUp(t.app)];
    postId = (await call('POST', '/api/posts', author, { body: 'A post to like' })).json<{
      id: string;
    }>().id;
    for (const fan of fans) {
      await call('PUT', `/api/posts/${postId}/like`, fan);
      await call('PUT', `/api/users/${author.user.uid}/follow`, fan);
      await call('POST', `/api/posts/${postId}/comments`, fan, { body: 'Nice.' });
    }
  });

  afterAll(async () => {
    await handle.close();
    await t.close();
  });

  it("keeps likes and rows of no group out of the group index, and a post's notifications by id", async () => {
    const indexes = await indexesOf(handle, 'notifications');
    expect(indexes.get('notifications_group_idx')).toMatch(
      /WHERE.*groupKey.*IS NOT NULL.*AND.*kind.*<>.*'like'/i,
    );
    if (target.name === 'postgres') {
      expect(indexes.get('notifications_postId_idx')).toMatch(/\("postId", id\)/);
    }
    // The author has two likes, two follows and two comments: only the follows are in the group index.
    expect(await rowsOf('follows')).toBe(target.name === 'postgres' ? undefined : 2);
    expect(await groupIndexEntries()).toBe(await rowsOf('follows'));
  });

  it("probes a like's group through the post's index and any other through the group index", async () => {
    const captured = capturing(handle);
    const repository = new NotificationsRepository(captured.db);
    const heads = await repository.heads(author.user.uid, { tab: 'all', take: 20 });
    // One head for the likes of the post, one for the follows, and each comment on its own.
    expect(heads.map((head) => head.kind).sort()).toEqual(['comment', 'comment', 'follow', 'like']);
    const [list] = captured.queries;
    if (!list) throw new Error('the list ran no query');
    const plan = await planOf(handle, list);
    expect(plan).toContain('notifications_postId_idx');
    expect(plan).toContain('notifications_group_idx');

    const groupKeys = heads.flatMap((head) => (head.groupKey === null ? [] : [head.groupKey]));
    const groups = await repository.groupActors(author.user.uid, groupKeys);
    expect([...groups.values()].map((group) => group.count)).toEqual([2, 2]);
    // The union of the groups' newest people, then the two counts (the plugin also sees the union's parts).
    const [newest, ...counts] = captured.queries.slice(-3);
    if (!newest?.sql.includes('union all')) throw new Error('the groups ran other queries');
    const newestPlan = await planOf(handle, newest);
    expect(newestPlan).toContain('notifications_postId_idx');
    expect(newestPlan).toContain('notifications_group_idx');
    const countPlans = await Promise.all(counts.map((query) => planOf(handle, query)));
    expect(countPlans.some((text) => text.includes('notifications_postId_idx'))).toBe(true);
    expect(countPlans.some((text) => text.includes('notifications_group_idx'))).toBe(true);
  });

  it('goes down to the index of every row and up again, with rows in the table', async () => {
    const migrator = new Migrator({ db: handle.db, provider: migrationProvider });
    const down = await migrator.migrateTo('0012-room-for-counts');
    expect(down.error).toBeUndefined();
    expect(down.results?.at(-1)?.migrationName).toBe('0013-like-groups-by-post');
    const before = await indexesOf(handle, 'notifications');
    expect(before.get('notifications_group_idx')).not.toMatch(/WHERE/i);
    expect(await groupIndexEntries()).toBe(await rowsOf('all'));
    if (target.name === 'postgres') {
      expect(before.get('notifications_postId_idx')).not.toMatch(/, id\)/);
    }

    await migrateToLatest(handle.db);
    expect((await indexesOf(handle, 'notifications')).get('notifications_group_idx')).toMatch(
      /kind.*<>.*'like'/i,
    );
    expect(await groupIndexEntries()).toBe(await rowsOf('follows'));
  });
});
