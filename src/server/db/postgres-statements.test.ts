import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { databaseTargets } from '../test/harness.js';
import { openDatabase, type DatabaseHandle } from './database.js';
import { plannedForItsValues, StatementNames, statementLimits } from './postgres-statements.js';

describe('StatementNames', () => {
  it('names a text the second time it runs, and keeps that name', () => {
    const names = new StatementNames();
    const text = 'select 1 where $1::int = 1';
    expect(names.nameFor(text)).toBeUndefined();
    const name = names.nameFor(text);
    expect(name).toMatch(/^hearth_[0-9a-f]{24}$/);
    expect(names.nameFor(text)).toBe(name);
    expect(names.nameFor('select 2 where $1::int = 1')).toBeUndefined();
    expect(names.nameFor('select 2 where $1::int = 1')).not.toBe(name);
  });

  it('leaves unnamed what is planned for its values, refused, or too long', () => {
    const names = new StatementNames();
    const marked = `${plannedForItsValues} select $1::text`;
    const long = `select $1::text, '${'x'.repeat(statementLimits.maxTextChars)}'`;
    for (let run = 0; run < 3; run += 1) {
      expect(names.nameFor(marked)).toBeUndefined();
      expect(names.nameFor(long)).toBeUndefined();
    }
    const refused = 'select $1::bigint';
    names.nameFor(refused);
    expect(names.nameFor(refused)).toBeDefined();
    names.refuse(refused);
    expect(names.nameFor(refused)).toBeUndefined();
    expect(names.nameFor(refused)).toBeUndefined();
  });

  it('names at most maxNamed texts', () => {
    const names = new StatementNames();
    let named = 0;
    for (let index = 0; index < statementLimits.maxNamed + 10; index += 1) {
      const text = `select $1::int + ${index}`;
      names.nameFor(text);
      if (names.nameFor(text) !== undefined) named += 1;
    }
    expect(named).toBe(statementLimits.maxNamed);
  });
});

const postgres = databaseTargets.find((target) => target.name === 'postgres');

describe.skipIf(!postgres)('named statements on PostgreSQL', () => {
  let drop: () => Promise<void>;
  let handle: DatabaseHandle;
  let dataDir: string;

  beforeAll(async () => {
    if (!postgres) return;
    const database = await postgres.create();
    drop = () => database.drop();
    dataDir = mkdtempSync(path.join(tmpdir(), 'hearth-statements-'));
    // One connection, so every query below shares its prepared statements.
    handle = openDatabase({ dataDir, databaseUrl: database.url, poolSize: 1 });
    await sql`create table things (id int primary key, label text)`.execute(handle.db);
    await sql`insert into things values (1, 'one'), (2, 'two')`.execute(handle.db);
  });

  afterAll(async () => {
    await handle.close();
    await drop();
    rmSync(dataDir, { recursive: true, force: true });
  });

  const prepared = async () =>
    (
      await sql<{ name: string; statement: string }>`
        select name, statement from pg_prepared_statements order by name`.execute(handle.db)
    ).rows;

  it('prepares a query that comes back once per connection, and answers as before', async () => {
    const labels: string[] = [];
    for (const id of [1, 2, 1]) {
      const { rows } = await sql<{
        label: string;
      }>`select label from things where id = ${id}`.execute(handle.db);
      labels.push(rows[0]?.label ?? '');
    }
    expect(labels).toEqual(['one', 'two', 'one']);
    const statements = await prepared();
    expect(statements.map((row) => row.statement)).toEqual([
      'select label from things where id = $1',
    ]);
    expect(statements[0]?.name).toMatch(/^hearth_[0-9a-f]{24}$/);
    for (let run = 0; run < 3; run += 1) {
      await sql`${sql.raw(plannedForItsValues)} select label from things where id = ${run}`.execute(
        handle.db,
      );
    }
    expect(await prepared()).toHaveLength(1);
  });

  it('runs a statement unnamed once its table changed under its plan', async () => {
    const read = () => sql<{ id: number }>`select * from things where id = ${1}`.execute(handle.db);
    await read();
    await read();
    expect((await prepared()).map((row) => row.statement)).toContain(
      'select * from things where id = $1',
    );
    await sql`alter table things add column extra text`.execute(handle.db);
    const { rows } = await read();
    expect(rows).toEqual([{ id: 1, label: 'one', extra: null }]);
    expect((await read()).rows).toHaveLength(1);
  });
});
