import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { Migrator, sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openDatabase, type DatabaseHandle } from '../database.js';
import { migrateToLatest } from '../migrator.js';
import { migrationProvider } from './index.js';

describe('migration 0011: the search index vocabulary (SQLite)', () => {
  let dataDir: string;
  let handle: DatabaseHandle;

  beforeAll(async () => {
    dataDir = mkdtempSync(path.join(tmpdir(), 'hearth-search-terms-'));
    handle = openDatabase({ dataDir, databaseUrl: undefined });
    await migrateToLatest(handle.db);
  });

  afterAll(async () => {
    await handle.close();
    rmSync(dataDir, { recursive: true, force: true });
  });

  const terms = async (from: string, to: string) =>
    (
      await sql<{ term: string; doc: number }>`
        select term, doc from posts_search_terms where term >= ${from} and term < ${to}`.execute(
        handle.db,
      )
    ).rows;

  it('reads the words of the indexed posts, with how many posts hold each', async () => {
    await sql`insert into posts_search (rowid, body, authorId) values
      (1, 'Gardens and a Garden', 'u1'), (2, 'the gardener gardens', 'u1')`.execute(handle.db);
    expect(await terms('garden', 'gardeo')).toEqual([
      { term: 'garden', doc: 1 },
      { term: 'gardener', doc: 1 },
      { term: 'gardens', doc: 2 },
    ]);
  });

  it('goes down and up again', async () => {
    const migrator = new Migrator({ db: handle.db, provider: migrationProvider });
    const down = await migrator.migrateTo('0010-lighter-writes');
    expect(down.error).toBeUndefined();
    await expect(terms('a', 'b')).rejects.toThrow(/no such table/);
    await migrateToLatest(handle.db);
    expect((await terms('garden', 'gardeo')).length).toBe(3);
  });
});
