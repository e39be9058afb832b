import { mkdtempSync, readdirSync, readlinkSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { sql, type Kysely } from 'kysely';
import { afterEach, describe, expect, it } from 'vitest';
import { openDatabase, type DatabaseHandle } from './database.js';
import { migrateToLatest, withTemporariesOnDisk } from './migrator.js';
import type { Database } from './schema.js';

const dirs: string[] = [];
const handles: DatabaseHandle[] = [];
afterEach(async () => {
  for (const handle of handles.splice(0)) await handle.close();
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

function open(): Kysely<Database> {
  const dataDir = mkdtempSync(path.join(tmpdir(), 'hearth-temporaries-'));
  dirs.push(dataDir);
  const handle = openDatabase({ dataDir, databaseUrl: undefined });
  handles.push(handle);
  return handle.db;
}

/** SQLite's temporary files this process holds open: SQLite names them `etilqs_…` and unlinks them at once. */
function openTemporaryFiles(): number {
  const fds = '/proc/self/fd';
  let count = 0;
  for (const fd of readdirSync(fds)) {
    try {
      if (path.basename(readlinkSync(path.join(fds, fd))).startsWith('etilqs_')) count += 1;
    } catch {
      // Closed between the listing and the read.
    }
  }
  return count;
}

const temporaryStore = async (db: Kysely<Database>) =>
  (await sql<{ temp_store: number }>`pragma temp_store`.execute(db)).rows[0]?.temp_store;

/**
 * A transaction that changes about 200 KiB of pages written before it: it runs in a savepoint of the shared
 * commit (ADR 0038), whose journal keeps each page as it was. Answers how many temporary files were open at
 * its end, before its commit.
 */
async function rewriteInSavepoint(db: Kysely<Database>): Promise<number> {
  await sql`create table if not exists filler (id integer primary key, text text not null)`.execute(
    db,
  );
  await sql`delete from filler`.execute(db);
  await sql`insert into filler (text)
    select printf('%.200c', 'a') from (with recursive n(i) as (select 1 union all select i + 1 from n where i < 1000) select i from n)`.execute(
    db,
  );
  return db.transaction().execute(async (trx) => {
    await sql`update filler set text = printf('%.200c', 'b')`.execute(trx);
    return openTemporaryFiles();
  });
}

describe.skipIf(process.platform !== 'linux')(
  "SQLite's temporary structures (ADR 0050; the probe reads /proc, so Linux only)",
  () => {
    it('keeps the journal of a transaction in a shared commit in memory, where it would spill to a file', async () => {
      const db = open();
      expect(await temporaryStore(db)).toBe(2);
      expect(await rewriteInSavepoint(db)).toBe(0);
      // The probe sees the spill when temporaries are on disk: the default that this setting replaces.
      await sql`pragma temp_store = file`.execute(db);
      expect(await rewriteInSavepoint(db)).toBeGreaterThan(0);
    });

    it('runs migrations with temporaries on disk, and keeps them in memory after, even when one fails', async () => {
      const db = open();
      expect(await withTemporariesOnDisk(db, () => temporaryStore(db))).toBe(1);
      expect(await temporaryStore(db)).toBe(2);
      await expect(
        withTemporariesOnDisk(db, () => Promise.reject(new Error('a failed migration'))),
      ).rejects.toThrow('a failed migration');
      expect(await temporaryStore(db)).toBe(2);
      const { applied } = await migrateToLatest(db);
      expect(applied.length).toBeGreaterThan(0);
      expect(await temporaryStore(db)).toBe(2);
    });
  },
);
