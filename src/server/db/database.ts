import { closeSync, openSync } from 'node:fs';
import path from 'node:path';
import SQLite from 'better-sqlite3';
import { Kysely, PostgresDialect } from 'kysely';
import pg from 'pg';
import type { Logger } from 'pino';
import { ensurePrivateDir, privateModes, restrictIfPresent } from '../private-files.js';
import { backstopCheckpointPages, startCheckpointer } from './checkpointer.js';
import { preparingPool } from './postgres-statements.js';
import type { Database } from './schema.js';
import { sqliteKysely } from './sqlite-dialect.js';
import { cachedStatements } from './sqlite-statements.js';

export type Dialect = 'sqlite' | 'postgres';

export interface DatabaseHandle {
  db: Kysely<Database>;
  dialect: Dialect;
  /** Where the data lives, for logs (never includes a password). */
  describe: string;
  close(): Promise<void>;
}

export interface DatabaseOptions {
  dataDir: string;
  databaseUrl: string | undefined;
  /** Connections in the PostgreSQL pool. */
  poolSize?: number;
  /** SQLite's commit mode; `normal` when not given (ADR 0029). */
  sqliteSync?: SqliteSync;
  /**
   * The server's logger: SQLite's checkpoints then run on a worker thread, off the event loop, and their
   * failures are logged here (ADR 0029). Short-lived tools leave them to SQLite.
   */
  checkpointLog?: Pick<Logger, 'warn'>;
}

/**
 * How SQLite (in WAL mode) commits (ADR 0029). `normal`: a commit is written to the WAL without waiting for
 * the disk, so it survives the process being killed, and a power loss may undo the last commits but never
 * corrupts the file. `full`: each commit also waits for the disk (an fsync that holds the event loop).
 */
export type SqliteSync = 'normal' | 'full';

/**
 * How long a SQLite write waits for another connection's write lock (the operator CLI, a second server)
 * before it fails with SQLITE_BUSY. The wait holds the event loop: it happens in SQLite's own code.
 */
const sqliteBusyTimeoutMs = 5_000;

/** How long a request waits for a PostgreSQL connection before it is answered 503. */
export const postgresConnectTimeoutMs = 3_000;

/** Opens SQLite in DATA_DIR (the zero-services default) or PostgreSQL when DATABASE_URL is set (ADR 0001). */
export function openDatabase(options: DatabaseOptions): DatabaseHandle {
  if (options.databaseUrl) {
    // DATA_DIR still holds the secret, media and mail when the database lives elsewhere.
    restrictIfPresent(options.dataDir, privateModes.dir);
    const pool = new pg.Pool({
      connectionString: options.databaseUrl,
      max: options.poolSize ?? 10,
      idleTimeoutMillis: 30_000,
      // An unreachable server (or a pool with no free connection) fails the request with a 503 within this,
      // rather than holding it until the client gives up.
      connectionTimeoutMillis: postgresConnectTimeoutMs,
    });
    // An idle connection that dies (PostgreSQL restarts, fails over, or an admin ends it) is dropped by the
    // pool and replaced on the next query; without a listener its 'error' event would crash the process.
    pool.on('error', () => undefined);
    // A connection lost while checked out (mid-query or mid-transaction) also emits 'error', on the client
    // rather than the pool: its query fails, and answers 503, but the process must not crash with it.
    pool.on('connect', (client) => client.on('error', () => undefined));
    // Queries that come back run as named statements, parsed and planned once per connection (ADR 0044).
    const db = new Kysely<Database>({
      dialect: new PostgresDialect({ pool: preparingPool(pool) }),
    });
    const url = new URL(options.databaseUrl);
    return {
      db,
      dialect: 'postgres',
      describe: `postgres://${url.host}${url.pathname}`,
      close: () => db.destroy(),
    };
  }
  ensurePrivateDir(options.dataDir);
  const file = path.join(options.dataDir, 'hearth.db');
  // SQLite would create the file 0644 less the umask, and gives -wal and -shm the mode of the database
  // file: so it is created owner-only first, and files an earlier version left readable are narrowed.
  closeSync(openSync(file, 'a', privateModes.file));
  for (const own of [file, `${file}-wal`, `${file}-shm`, `${file}-journal`]) {
    restrictIfPresent(own, privateModes.file);
  }
  const sqlite = new SQLite(file);
  // WAL for concurrent readers and commits that survive a killed process without an fsync each; the commit
  // mode decides what a power loss may cost (ADR 0029). FKs because SQLite defaults them off.
  sqlite.pragma('journal_mode = WAL');
  const sync = options.sqliteSync ?? 'normal';
  sqlite.pragma(sync === 'full' ? 'synchronous = FULL' : 'synchronous = NORMAL');
  sqlite.pragma('foreign_keys = ON');
  // Temporary structures in memory (ADR 0050): above all the savepoint journal of a shared commit (ADR
  // 0038), which SQLite otherwise spills to a temporary file, two writes a page, once it passes 64 KiB.
  // Migrations, whose index builds sort whole tables, run with them on disk (`migrateToLatest`).
  sqlite.pragma('temp_store = MEMORY');
  sqlite.pragma(`busy_timeout = ${sqliteBusyTimeoutMs}`);
  const log = options.checkpointLog;
  const checkpointer =
    log &&
    startCheckpointer(file, {
      synchronous: sync,
      onError: (message) => log.warn({ err: message }, 'SQLite checkpoint failed'),
    });
  // The checkpointer copies the log into the file; this connection does it only past the backstop.
  if (checkpointer) sqlite.pragma(`wal_autocheckpoint = ${backstopCheckpointPages}`);
  const db = sqliteKysely<Database>(sqlite, cachedStatements(sqlite));
  return {
    db,
    dialect: 'sqlite',
    describe: file,
    close: async () => {
      await checkpointer?.stop();
      await db.destroy();
    },
  };
}
