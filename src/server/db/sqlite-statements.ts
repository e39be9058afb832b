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

function statement(prepared: SQLite.Statement): SqliteStatement {
  return {
    reader: prepared.reader,
    all: (parameters) => prepared.all(bindable(parameters)),
    run: (parameters) => prepared.run(bindable(parameters)),
    iterate: (parameters) => prepared.iterate(bindable(parameters)),
  };
}

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
