import { Migrator, sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { DatabaseHandle } from '../database.js';
import { migrateToLatest } from '../migrator.js';
import { countTables } from './0012-room-for-counts.js';
import { migrationProvider } from './index.js';
import {
  createTestApp,
  databaseTargets,
  openAppDatabase,
  send,
  signUp,
  type TestApp,
} from '../../test/harness.js';

const postgres = databaseTargets.find((target) => target.name === 'postgres');

describe.skipIf(!postgres)('migration 0012 on PostgreSQL: room for counts', () => {
  let t: TestApp;
  let handle: DatabaseHandle;
  const postIds: string[] = [];

  beforeAll(async () => {
    if (!postgres) return;
    t = await createTestApp(postgres, { RATE_LIMITS: 'off' });
    handle = openAppDatabase(t);
    const author = await signUp(t.app);
    // Enough posts for several pages of the table.
    for (let index = 0; index < 240; index += 1) {
      const response = await send(
        t.app,
        'POST',
        '/api/posts',
        { body: `Post number ${index} of a page-filling series, with a few words in it.` },
        { cookie: author.cookie },
      );
      expect(response.statusCode, response.body).toBe(201);
      postIds.push(response.json<{ id: string }>().id);
    }
  });

  afterAll(async () => {
    await handle.close();
    await t.close();
  });

  const fillFactors = async () =>
    (
      await sql<{ table: string; options: string[] | null }>`
        SELECT relname AS table, reloptions AS options FROM pg_class
        WHERE relname IN (${sql.join(Object.keys(countTables))}) AND relkind = 'r'
        ORDER BY relname`.execute(handle.db)
    ).rows;

  it('updates a count on a page of its own row, touching no index (a heap-only update)', async () => {
    // Every tenth post: a few on each page, as likes fall on the posts of a page.
    const liked = postIds.filter((_id, index) => index % 10 === 0);
    const counts = await handle.db.transaction().execute(async (trx) => {
      for (const id of liked) {
        await trx
          .updateTable('posts')
          .set((eb) => ({ likeCount: eb('likeCount', '+', 1) }))
          .where('id', '=', id)
          .execute();
      }
      // This transaction's own figures, current without waiting for the statistics to be flushed.
      const { rows } = await sql<{ updated: string; hot: string }>`
        SELECT n_tup_upd AS updated, n_tup_hot_upd AS hot FROM pg_stat_xact_user_tables
        WHERE relname = 'posts'`.execute(trx);
      return rows[0];
    });
    expect(Number(counts?.updated)).toBe(liked.length);
    expect(Number(counts?.hot)).toBe(liked.length);
  });

  it('sets the fill factor of each table, and goes down and up again', async () => {
    const expected = Object.entries(countTables)
      .map(([table, fillfactor]) => ({ table, options: [`fillfactor=${fillfactor}`] }))
      .sort((a, b) => a.table.localeCompare(b.table));
    expect(await fillFactors()).toEqual(expected);
    const migrator = new Migrator({ db: handle.db, provider: migrationProvider });
    const down = await migrator.migrateTo('0011-search-terms');
    expect(down.error).toBeUndefined();
    expect((await fillFactors()).map((row) => row.options)).toEqual(expected.map(() => null));
    await migrateToLatest(handle.db);
    expect(await fillFactors()).toEqual(expected);
  });
});
