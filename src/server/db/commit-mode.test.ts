import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { sql } from 'kysely';
import { afterEach, describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from '../config.js';
import { openDatabase } from './database.js';

const dirs: string[] = [];
afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

/** SQLite's `synchronous` and `journal_mode` pragmas of a database opened with `sqliteSync`. */
async function pragmas(sqliteSync?: 'normal' | 'full') {
  const dataDir = mkdtempSync(path.join(tmpdir(), 'hearth-commit-mode-'));
  dirs.push(dataDir);
  const handle = openDatabase({
    dataDir,
    databaseUrl: undefined,
    ...(sqliteSync ? { sqliteSync } : {}),
  });
  try {
    const sync = await sql<{ synchronous: number }>`pragma synchronous`.execute(handle.db);
    const journal = await sql<{ journal_mode: string }>`pragma journal_mode`.execute(handle.db);
    return { synchronous: sync.rows[0]?.synchronous, journal: journal.rows[0]?.journal_mode };
  } finally {
    await handle.close();
  }
}

describe('SQLite commit mode (ADR 0029)', () => {
  it('commits to the write-ahead log without a flush each by default', async () => {
    // 1 is NORMAL, 2 is FULL.
    expect(await pragmas()).toEqual({ synchronous: 1, journal: 'wal' });
    expect(await pragmas('normal')).toEqual({ synchronous: 1, journal: 'wal' });
  });

  it('flushes every commit with SQLITE_SYNC=full', async () => {
    expect(await pragmas('full')).toEqual({ synchronous: 2, journal: 'wal' });
  });

  it('reads SQLITE_SYNC, normal when unset, and refuses anything else', () => {
    const secret = 'x'.repeat(32);
    expect(loadConfig({ AUTH_SECRET: secret }).sqliteSync).toBe('normal');
    expect(loadConfig({ AUTH_SECRET: secret, SQLITE_SYNC: 'full' }).sqliteSync).toBe('full');
    expect(() => loadConfig({ AUTH_SECRET: secret, SQLITE_SYNC: 'off' })).toThrow(ConfigError);
  });
});
