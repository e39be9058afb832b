import { copyFileSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import SQLite from 'better-sqlite3';
import { sql } from 'kysely';
import { afterEach, describe, expect, it } from 'vitest';
import { backstopCheckpointPages, startCheckpointer } from './checkpointer.js';
import { openDatabase } from './database.js';

const dirs: string[] = [];
afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

function tempDir(): string {
  const dir = mkdtempSync(path.join(tmpdir(), 'hearth-checkpoint-'));
  dirs.push(dir);
  return dir;
}

describe('the checkpointer (ADR 0029)', () => {
  it('copies what the server committed into the database file, from its own thread', async () => {
    const file = path.join(tempDir(), 'hearth.db');
    const server = new SQLite(file);
    server.pragma('journal_mode = WAL');
    // Nothing is checkpointed by the writing connection: only the checkpointer can.
    server.pragma('wal_autocheckpoint = 0');
    server.exec('create table t (id integer primary key, body text)');
    const insert = server.prepare('insert into t (body) values (?)');
    for (let i = 0; i < 200; i += 1) insert.run('x'.repeat(500));

    const errors: string[] = [];
    const checkpointer = startCheckpointer(file, {
      synchronous: 'normal',
      onError: (message) => errors.push(message),
    });
    try {
      const result = await checkpointer.next();
      expect(result.log).toBeGreaterThan(0);
      expect(result.checkpointed).toBe(result.log);
      // Later commits are picked up by later runs.
      for (let i = 0; i < 50; i += 1) insert.run('y'.repeat(500));
      let next = await checkpointer.next();
      if (next.checkpointed < next.log) next = await checkpointer.next();
      expect(next.checkpointed).toBe(next.log);
      expect(errors).toEqual([]);
      // Everything is in the database file while the server still runs: a copy of the file alone,
      // without the log, holds every row.
      copyFileSync(file, `${file}.copy`);
    } finally {
      await checkpointer.stop();
      server.close();
    }
    const alone = new SQLite(`${file}.copy`, { readonly: true });
    expect(alone.prepare('select count(*) as count from t').get()).toEqual({ count: 250 });
    alone.close();
  });

  it('leaves the server connection only a backstop when the server runs one', async () => {
    const warnings: unknown[] = [];
    const handle = openDatabase({
      dataDir: tempDir(),
      databaseUrl: undefined,
      checkpointLog: { warn: (...args: unknown[]) => warnings.push(args) },
    });
    try {
      const { rows } = await sql<{
        wal_autocheckpoint: number;
      }>`pragma wal_autocheckpoint`.execute(handle.db);
      expect(rows[0]?.wal_autocheckpoint).toBe(backstopCheckpointPages);
    } finally {
      await handle.close();
    }
    expect(warnings).toEqual([]);
  });
});
