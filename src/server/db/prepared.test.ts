import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { StandingReader } from '../auth/standing.js';
import { databaseTargets } from '../test/harness.js';
import { openDatabase, type DatabaseHandle } from './database.js';
import { migrateToLatest } from './migrator.js';
import { prepare } from './prepared.js';

describe.each(databaseTargets)('queries compiled once on $name', (target) => {
  let dataDir: string;
  let database: Awaited<ReturnType<typeof target.create>>;
  let handle: DatabaseHandle;

  beforeAll(async () => {
    dataDir = mkdtempSync(path.join(tmpdir(), 'hearth-prepared-'));
    database = await target.create();
    handle = openDatabase({ dataDir, databaseUrl: database.url, poolSize: 2 });
    await migrateToLatest(handle.db);
    const now = new Date().toISOString();
    for (const [id, role, active] of [
      ['u1', 'member', true],
      ['u2', 'admin', false],
    ] as const) {
      await handle.db
        .insertInto('users')
        .values({
          id,
          name: id,
          email: `${id}@example.com`,
          emailVerified: false,
          username: id,
          role,
          active,
          createdAt: now,
          updatedAt: now,
        })
        .execute();
    }
  });
  afterAll(async () => {
    await handle.close();
    await database.drop();
    rmSync(dataDir, { recursive: true, force: true });
  });

  it('runs with each call’s values, keeping the constants it was built with', async () => {
    const db = handle.db;
    const query = prepare(db, (params: { uid: string; limit: number }) =>
      db
        .selectFrom('users')
        .select(['id', 'role'])
        .where('id', '=', params.uid)
        .where('username', '!=', 'nobody')
        .limit(params.limit),
    );
    expect(await query.execute({ uid: 'u1', limit: 5 })).toEqual([{ id: 'u1', role: 'member' }]);
    expect(await query.execute({ uid: 'u2', limit: 5 })).toEqual([{ id: 'u2', role: 'admin' }]);
    expect(await query.execute({ uid: 'u2', limit: 0 })).toEqual([]);
    expect(await query.executeTakeFirst({ uid: 'missing', limit: 5 })).toBeUndefined();
  });

  it('runs inside a transaction it is given, and its write goes with the transaction', async () => {
    const db = handle.db;
    const rename = prepare(db, (params: { uid: string; name: string }) =>
      db
        .updateTable('users')
        .set({ name: params.name })
        .where('id', '=', params.uid)
        .returning('name'),
    );
    const nameOf = async () =>
      (await db.selectFrom('users').select('name').where('id', '=', 'u1').executeTakeFirst())?.name;
    // On SQLite the transaction holds the only connection: run on the database, this would never end.
    await expect(
      db.transaction().execute(async (trx) => {
        expect(await rename.executeTakeFirst({ uid: 'u1', name: 'inside' }, trx)).toEqual({
          name: 'inside',
        });
        throw new Error('undo');
      }),
    ).rejects.toThrow('undo');
    expect(await nameOf()).toBe('u1');
    await db.transaction().execute(async (trx) => {
      await rename.execute({ uid: 'u1', name: 'kept' }, trx);
    });
    expect(await nameOf()).toBe('kept');
    await rename.execute({ uid: 'u1', name: 'u1' });
  });

  it('binds a list item by item, compiled once per length', async () => {
    const db = handle.db;
    const query = prepare(db, (params: { ids: string[]; role: string }) =>
      db
        .selectFrom('users')
        .select('id')
        .where('id', 'in', params.ids)
        .where('role', '=', params.role)
        .orderBy('id'),
    );
    expect(await query.execute({ ids: ['u1', 'u2'], role: 'member' })).toEqual([{ id: 'u1' }]);
    expect(await query.execute({ ids: ['u2', 'u1'], role: 'admin' })).toEqual([{ id: 'u2' }]);
    expect(await query.execute({ ids: ['u2'], role: 'admin' })).toEqual([{ id: 'u2' }]);
    expect(await query.execute({ ids: ['u1', 'u2', 'nobody'], role: 'member' })).toEqual([
      { id: 'u1' },
    ]);
    expect(query.sql({ ids: ['a', 'b'], role: 'x' })).toBe(
      query.sql({ ids: ['c', 'd'], role: 'y' }),
    );
    expect(query.sql({ ids: ['a'], role: 'x' })).not.toBe(
      query.sql({ ids: ['a', 'b'], role: 'x' }),
    );
  });

  it('refuses a stand-in used where Kysely reads the value instead of binding it', () => {
    const db = handle.db;
    const query = prepare(db, (params: { uid: string; column: 'id' }) =>
      db.selectFrom('users').select(params.column).where('id', '=', params.uid),
    );
    expect(() => query.sql({ uid: 'u1', column: 'id' })).toThrow();
  });

  it('reads a viewer’s standing as the repository did', async () => {
    const standing = new StandingReader(handle.db);
    expect(await standing.findStanding('u2')).toEqual({
      id: 'u2',
      role: 'admin',
      active: false,
      suspendedAt: null,
      suspendedUntil: null,
    });
    expect(await standing.findStanding('nobody')).toBeUndefined();
  });
});
