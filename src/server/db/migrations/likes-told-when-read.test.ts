import { Migrator, sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { DatabaseHandle } from '../database.js';
import { migrateToLatest } from '../migrator.js';
import { migrationProvider } from './index.js';
import { indexesOf, planOf } from './plans.js';
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

describe.each(databaseTargets)('migration 0014 on $name: likes told when read', (target) => {
  let t: TestApp;
  let handle: DatabaseHandle;
  let author: Person;
  let fan: Person;

  async function likeColumns(): Promise<string[]> {
    const query =
      target.name === 'postgres'
        ? sql<{ name: string }>`SELECT column_name AS name FROM information_schema.columns
            WHERE table_name = 'post_likes' ORDER BY column_name`
        : sql<{ name: string }>`SELECT name FROM pragma_table_info('post_likes') ORDER BY name`;
    return (await query.execute(handle.db)).rows.map((row) => row.name);
  }

  async function like(): Promise<void> {
    const posted = await send(
      t.app,
      'POST',
      '/api/posts',
      { body: 'Like me' },
      {
        cookie: author.cookie,
      },
    );
    expect(posted.statusCode, posted.body).toBe(201);
    const { id } = posted.json<{ id: string }>();
    const liked = await send(t.app, 'PUT', `/api/posts/${id}/like`, undefined, {
      cookie: fan.cookie,
    });
    expect(liked.statusCode, liked.body).toBe(200);
  }

  beforeAll(async () => {
    t = await createTestApp(target);
    handle = openAppDatabase(t);
    // With a few rows, PostgreSQL would read the whole table whatever its indexes: a plan that names an
    // index then says that the index can answer the query, which is what these tests ask.
    if (target.name === 'postgres') await sql`SET enable_seqscan = off`.execute(handle.db);
    [author, fan] = await Promise.all([signUp(t.app), signUp(t.app)]);
  });

  afterAll(async () => {
    await handle.close();
    await t.close();
  });

  it("indexes the pending likes only, and a bell's probe reads that index", async () => {
    const indexes = await indexesOf(handle, 'post_likes');
    expect(indexes.get('post_likes_pending_idx')).toMatch(
      /\(.*pendingRecipientId.*, .*id.*\).*WHERE.*pendingRecipientId.*IS NOT NULL/i,
    );
    await like();
    const written = await new NotificationsRepository(handle.db).writePendingLikes(author.user.uid);
    expect(written).toHaveLength(1);
    // The bell's probe, as `hasPendingLikesQuery` builds it.
    const probe = handle.db
      .selectFrom('post_likes')
      .select('id')
      .where('pendingRecipientId', '=', author.user.uid)
      .limit(1)
      .compile();
    expect(await planOf(handle, probe)).toContain('post_likes_pending_idx');
  });

  it('goes down without the column, dropping what was pending, and up again with none pending', async () => {
    await like();
    const migrator = new Migrator({ db: handle.db, provider: migrationProvider });
    const down = await migrator.migrateTo('0013-like-groups-by-post');
    expect(down.error).toBeUndefined();
    expect(down.results?.map((result) => result.migrationName)).toEqual([
      '0014-likes-told-when-read',
    ]);
    expect(await likeColumns()).not.toContain('pendingRecipientId');
    expect((await indexesOf(handle, 'post_likes')).has('post_likes_pending_idx')).toBe(false);

    await migrateToLatest(handle.db);
    expect(await likeColumns()).toContain('pendingRecipientId');
    const pending = await handle.db
      .selectFrom('post_likes')
      .select('id')
      .where('pendingRecipientId', 'is not', null)
      .execute();
    expect(pending).toEqual([]);
  });
});
