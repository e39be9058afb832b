import type SQLite from 'better-sqlite3';
import type { SqliteDatabase, SqliteStatement } from 'kysely';

/** Prepared statements kept per connection; the app has a few hundred distinct queries. */
export const statementCacheSize = 1_000;

/**
 * SQLite has no boolean type and better-sqlite3 refuses to bind JavaScript booleans: they are bound as 1/0,
 * as Better Auth writes them (ADR 0001). Reads go through presenters, which accept either.
 */
function bindable(parameters: ReadonlyArray<unknown>): ReadonlyArray<unknown> {
  for (const value of parameters) {
    if (typeof value === 'boolean') {
      return parameters.map((item) => (typeof item === 'boolean' ? (item ? 1 : 0) : item));
    }
  }
  return parameters;
}

type Row = Record<string, unknown>;
type RowBuilder = (values: unknown[]) => Row;

/**
 * A function that turns one raw row (an array of values) into the object better-sqlite3 would have made,
 * for the given column names: later columns of the same name win, as there. An object literal of fixed
 * keys gets its shape once, where better-sqlite3 adds each property to a fresh object through V8's API
 * (a string lookup and a shape change each): twenty rows of a page cost about a third less to read this
 * way (ADR 0052). The names come from SQLite's description of the statement, escaped as JSON strings.
 */
export function rowBuilder(names: readonly string[]): RowBuilder {
  const properties = names.map((name, index) => {
    const key = JSON.stringify(name);
    // A literal `"__proto__": v` would set the prototype; a computed key defines the property.
    return `${name === '__proto__' ? `[${key}]` : key}: values[${index}]`;
  });
  // eslint-disable-next-line @typescript-eslint/no-implied-eval -- built from escaped column names only
  return new Function('values', `return { ${properties.join(', ')} };`) as RowBuilder;
}

function statement(prepared: SQLite.Statement): SqliteStatement {
  if (!prepared.reader) {
    return {
      reader: false,
      all: (parameters) => prepared.all(bindable(parameters)),
      run: (parameters) => prepared.run(bindable(parameters)),
      iterate: (parameters) => prepared.iterate(bindable(parameters)),
    };
  }
  prepared.raw(true);
  let build: RowBuilder | null = null;
  let width = -1;
  // Built on first use, and again should the statement's columns change under it: SQLite prepares a
  // statement anew after a schema change, and a `select *` may then return other columns.
  const rowOf = (values: unknown[]): Row => {
    if (build === null || values.length !== width) {
      const names = prepared.columns().map((column) => column.name);
      build = rowBuilder(names);
      width = names.length;
    }
    return build(values);
  };
  return {
    reader: true,
    all: (parameters) => (prepared.all(bindable(parameters)) as unknown[][]).map(rowOf),
    run: (parameters) => prepared.run(bindable(parameters)),
    iterate: function* (parameters) {
      for (const values of prepared.iterate(bindable(parameters)) as IterableIterator<unknown[]>) {
        yield rowOf(values);
      }
    },
  };
}

const changesSchema = /^\s*(?:create|alter|drop)\b/i;

/**
 * The SQLite connection as Kysely sees it, preparing each distinct query once instead of on every
 * execution (better-sqlite3 statements are reusable, and synchronous, so never busy when reused). The
 * cache evicts the least recently used statement past its size.
 */
export function cachedStatements(sqlite: SQLite.Database): SqliteDatabase {
  const cache = new Map<string, SqliteStatement>();
  return {
    close: () => {
      cache.clear();
      sqlite.close();
    },
    prepare: (sql) => {
      // A change of schema may change the columns of a cached `select *` (a renamed column, say): the
      // statements are prepared again, and so are the rows they build.
      if (changesSchema.test(sql)) cache.clear();
      let cached = cache.get(sql);
      if (cached) {
        // Re-inserting moves it to the end: the map's first key is the least recently used.
        cache.delete(sql);
      } else {
        cached = statement(sqlite.prepare(sql));
        if (cache.size >= statementCacheSize) {
          const oldest = cache.keys().next();
          if (!oldest.done) cache.delete(oldest.value);
        }
      }
      cache.set(sql, cached);
      return cached;
    },
  };
}
