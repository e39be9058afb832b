import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { getMigrations } from 'better-auth/db/migration';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createAuth } from '../auth/auth.js';
import { loadConfig } from '../config.js';
import { databaseTargets } from '../test/harness.js';
import { openDatabase, type DatabaseHandle } from './database.js';
import { migrateToLatest } from './migrator.js';

// DESIGN.md: Better Auth's CLI needs Node 22, so our own migrations create its tables; its own schema
// check must agree with them, or sign-up breaks at runtime on a column it expected.
describe.each(databaseTargets)('Better Auth tables on $name', (target) => {
  let dataDir: string;
  let database: Awaited<ReturnType<typeof target.create>>;
  let handle: DatabaseHandle;
  let firstRun: string[];

  beforeAll(async () => {
    dataDir = mkdtempSync(path.join(tmpdir(), 'hearth-schema-'));
    database = await target.create();
    handle = openDatabase({ dataDir, databaseUrl: database.url, poolSize: 2 });
    firstRun = (await migrateToLatest(handle.db)).applied;
  });
  afterAll(async () => {
    await handle.close();
    await database.drop();
    rmSync(dataDir, { recursive: true, force: true });
  });

  it('migrates a fresh database', () => {
    expect(firstRun).toContain('0001-accounts');
  });

  it("leaves Better Auth's own check nothing to create or add", async () => {
    const config = loadConfig({ NODE_ENV: 'test', DATA_DIR: dataDir, AUTH_SECRET: 'x'.repeat(32) });
    const auth = createAuth({
      config,
      db: handle.db,
      dialect: handle.dialect,
      hooks: { sendPasswordReset: () => Promise.resolve() },
    });
    const plan = await getMigrations(auth.options, { throwOnUnsafe: false });
    expect(plan.toBeCreated.map((table) => table.table)).toEqual([]);
    expect(plan.toBeAdded.map((table) => [table.table, Object.keys(table.fields)])).toEqual([]);
    expect(plan.toBeAddedIndexes.map((index) => index.name)).toEqual([]);
    expect(plan.unsafeChanges).toEqual([]);
    expect(plan.schemaProblems).toEqual([]);
  });

  it('migrating again is a no-op', async () => {
    expect((await migrateToLatest(handle.db)).applied).toEqual([]);
  });
});
