import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { sql } from 'kysely';
import { afterEach, expect, it } from 'vitest';
import { openDatabase } from '../database.js';
import { migrateToLatest } from '../migrator.js';

const dirs: string[] = [];
afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

it("SQLite's search index merges a level at 8 segments, not 4", async () => {
  const dataDir = mkdtempSync(path.join(tmpdir(), 'hearth-search-merging-'));
  dirs.push(dataDir);
  const handle = openDatabase({ dataDir, databaseUrl: undefined });
  try {
    await migrateToLatest(handle.db);
    // FTS5 keeps an index's settings in its `_config` shadow table; 4 (the default) is not stored.
    const config = await sql<{ v: number }>`
      SELECT v FROM posts_search_config WHERE k = 'automerge'`.execute(handle.db);
    expect(config.rows).toEqual([{ v: 8 }]);
  } finally {
    await handle.close();
  }
});
