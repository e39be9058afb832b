import SQLite from 'better-sqlite3';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { cachedStatements, rowBuilder } from './sqlite-statements.js';

describe('rowBuilder', () => {
  it('names each value by its column, the last of two equal names winning', () => {
    const build = rowBuilder(['id', 'name', 'id']);
    expect(build([1, 'a', 2])).toEqual({ id: 2, name: 'a' });
  });

  it('keeps names that are not identifiers, quotes and backslashes included', () => {
    const names = ['count(*)', 'a "quoted" name', 'back\\slash', 'line\nbreak', ''];
    const row = rowBuilder(names)([1, 2, 3, 4, 5]);
    expect(Object.keys(row)).toEqual(names);
    expect(Object.values(row)).toEqual([1, 2, 3, 4, 5]);
  });

  it('makes a column named __proto__ a property, never the prototype', () => {
    const row = rowBuilder(['__proto__', 'id'])([{ polluted: true }, 7]);
    expect(Object.getPrototypeOf(row)).toBe(Object.prototype);
    expect(Object.hasOwn(row, '__proto__')).toBe(true);
    expect((row as { polluted?: unknown }).polluted).toBeUndefined();
  });
});

describe('cachedStatements', () => {
  let sqlite: SQLite.Database;

  beforeEach(() => {
    sqlite = new SQLite(':memory:');
    sqlite.exec(`
      create table t (id integer primary key, name text, score real, data blob, missing text);
      insert into t (id, name, score, data) values (1, 'one', 1.5, x'0102'), (2, 'two', null, null);
    `);
  });

  afterEach(() => sqlite.close());

  it('reads the rows better-sqlite3 would make, through all and iterate', () => {
    const statements = cachedStatements(sqlite);
    const sql =
      'select t.*, t.id as id, upper(name) as "loud name" from t where id >= ? order by id';
    const expected = sqlite.prepare(sql).all(1);
    const read = statements.prepare(sql);
    expect(read.reader).toBe(true);
    expect(read.all([1])).toEqual(expected);
    expect([...read.iterate([1])]).toEqual(expected);
    expect(read.all([3])).toEqual([]);
  });

  it('returns the rows of a write with RETURNING, and the changes of one without', () => {
    const statements = cachedStatements(sqlite);
    const insert = statements.prepare('insert into t (name) values (?) returning id, name');
    expect(insert.all(['three'])).toEqual([{ id: 3, name: 'three' }]);
    const update = statements.prepare('update t set score = ? where id = ?');
    expect(update.reader).toBe(false);
    expect(update.run([true, 3])).toMatchObject({ changes: 1 });
    expect(statements.prepare('select score from t where id = 3').all([])).toEqual([{ score: 1 }]);
  });

  it('names the columns anew after a change of schema, also when their number stays', () => {
    const statements = cachedStatements(sqlite);
    const all = 'select * from t where id = 1';
    expect(Object.keys(statements.prepare(all).all([])[0] as object)).toContain('name');
    statements.prepare('alter table t rename column name to title').run([]);
    const renamed = statements.prepare(all).all([])[0] as Record<string, unknown>;
    expect(renamed.title).toBe('one');
    expect(renamed).not.toHaveProperty('name');
    statements.prepare('alter table t add column extra text').run([]);
    expect(statements.prepare(all).all([])[0]).toHaveProperty('extra', null);
  });

  it('names the columns anew when SQLite prepares a statement again for another connection’s change', () => {
    const statements = cachedStatements(sqlite);
    const all = 'select * from t where id = 2';
    expect(Object.keys(statements.prepare(all).all([])[0] as object)).toHaveLength(5);
    // Not through the cache: SQLite re-prepares the cached statement, which now has a sixth column.
    sqlite.exec('alter table t add column added integer default 4');
    expect(statements.prepare(all).all([])[0]).toHaveProperty('added', 4);
  });
});
