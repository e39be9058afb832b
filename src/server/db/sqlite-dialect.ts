import type SQLite from 'better-sqlite3';
import {
  CompiledQuery,
  SqliteAdapter,
  SqliteIntrospector,
  SqliteQueryCompiler,
  type DatabaseConnection,
  type DatabaseIntrospector,
  type Dialect,
  type DialectAdapter,
  type Driver,
  Kysely,
  type QueryCompiler,
  type QueryResult,
  type SqliteDatabase,
} from 'kysely';
import { runDirectly } from './prepared.js';

/** The savepoint each write transaction runs in, inside the group's transaction. */
const memberSavepoint = 'hearth_write';

/** Runs one statement of a transaction run alone: a query's rows, or none for a write. */
export type RunStatement = (sql: string, parameters?: readonly unknown[]) => unknown[];

/** Whether SQLite refused the write lock because another connection holds it. */
const isBusy = (error: unknown): boolean =>
  error instanceof Error && 'code' in error && error.code === 'SQLITE_BUSY';

interface Waiter {
  resolve(): void;
  reject(error: unknown): void;
}

/** SQLite has one connection: whoever holds this runs statements on it, one holder at a time. */
class Mutex {
  #held = false;
  readonly #queue: (() => void)[] = [];

  get held(): boolean {
    return this.#held;
  }

  async lock(): Promise<void> {
    if (!this.#held) {
      this.#held = true;
      return;
    }
    await new Promise<void>((resolve) => {
      this.#queue.push(resolve);
    });
  }

  /** Takes the mutex, which must be free. */
  claim(): void {
    if (this.#held) throw new Error('The connection is in use.');
    this.#held = true;
  }

  unlock(): void {
    const next = this.#queue.shift();
    if (next) next();
    else this.#held = false;
  }
}

/**
 * One use of the connection, from `acquireConnection` to `releaseConnection`: a write transaction, or a
 * statement run on its own.
 */
class Session implements DatabaseConnection {
  inTransaction = false;
  released = false;

  constructor(readonly driver: GroupCommitDriver) {}

  executeQuery<R>(compiledQuery: CompiledQuery): Promise<QueryResult<R>> {
    // A statement that fails rejects, as Kysely expects, rather than throwing at the call.
    return new Promise((resolve) => {
      resolve(this.driver.run<R>(this, compiledQuery));
    });
  }

  streamQuery<R>(compiledQuery: CompiledQuery): AsyncIterableIterator<QueryResult<R>> {
    const statement = this.driver.prepare(compiledQuery.sql);
    if (!statement.reader) throw new Error('SQLite streams only the rows of a query that reads.');
    const rows = statement.iterate(compiledQuery.parameters);
    const stream: AsyncIterableIterator<QueryResult<R>> = {
      next: () => {
        const row = rows.next();
        return Promise.resolve(
          row.done
            ? { done: true, value: undefined }
            : { done: false, value: { rows: [row.value as R] } },
        );
      },
      [Symbol.asyncIterator]: () => stream,
    };
    return stream;
  }
}

/** The session Kysely hands back: always one this driver made. */
function sessionOf(connection: DatabaseConnection): Session {
  if (!(connection instanceof Session)) throw new Error('Not a connection of this driver.');
  return connection;
}

/**
 * Write transactions that run back to back share one commit (ADR 0038). Each runs in a savepoint of a
 * group transaction, begun immediately by the first of them; a transaction whose work is done releases
 * its savepoint and waits for the group's commit, and the next one may start at once. The group commits
 * once the event loop has nothing more to add (`setImmediate`), and every transaction in it is answered
 * then: none resolves before its writes are committed, so an acknowledged write is as durable as with a
 * commit of its own. A transaction that fails rolls back to its savepoint alone. Should SQLite end the
 * group's transaction itself (a full disk, an I/O error), every transaction in it fails.
 *
 * A statement run on its own sees the group's writes if it reads; if it writes, the group commits first,
 * so it runs in autocommit mode exactly as before.
 */
export class GroupCommitDriver implements Driver {
  readonly #sqlite: SQLite.Database;
  readonly #statements: SqliteDatabase;
  readonly #mutex = new Mutex();
  #groupOpen = false;
  #waiters: Waiter[] = [];
  #flushScheduled = false;
  /** The use of the connection that holds the mutex, while one does. */
  #holder: Session | null = null;

  constructor(sqlite: SQLite.Database, statements: SqliteDatabase) {
    this.#sqlite = sqlite;
    this.#statements = statements;
  }

  async init(): Promise<void> {
    // The connection is open already.
  }

  prepare(sql: string) {
    return this.#statements.prepare(sql);
  }

  run<R>(
    session: Session,
    { sql, parameters }: Pick<CompiledQuery, 'sql' | 'parameters'>,
  ): QueryResult<R> {
    const statement = this.#statements.prepare(sql);
    if (statement.reader) return { rows: statement.all(parameters) as R[] };
    // A write outside a transaction must not ride on the group: it would be answered before the commit.
    if (!session.inTransaction) this.#commitGroup();
    const { changes, lastInsertRowid } = statement.run(parameters);
    return {
      numAffectedRows: BigInt(changes),
      insertId: BigInt(lastInsertRowid),
      rows: [],
    };
  }

  async acquireConnection(): Promise<DatabaseConnection> {
    await this.#mutex.lock();
    this.#holder = new Session(this);
    return this.#holder;
  }

  /**
   * Runs one statement now, without Kysely's executor and its promises (ADR 0041), where that is what the
   * executor would do: in the transaction that holds the connection (`inTransaction`), or on its own
   * while no one holds it. Returns undefined otherwise, and the caller goes through Kysely and waits.
   */
  runNow(
    sql: string,
    parameters: readonly unknown[],
    inTransaction: boolean,
  ): unknown[] | undefined {
    if (inTransaction) {
      const holder = this.#holder;
      if (!holder?.inTransaction) return undefined;
      return this.run<unknown>(holder, { sql, parameters }).rows;
    }
    if (this.#mutex.held) return undefined;
    const session = new Session(this);
    this.#mutex.claim();
    this.#holder = session;
    try {
      return this.run<unknown>(session, { sql, parameters }).rows;
    } finally {
      this.#release(session);
    }
  }

  /**
   * Runs `work` as a write transaction of its own, from `begin` to `commit` in one stretch of synchronous
   * code, once the connection is free; the open group commits first. Nothing else in this process runs
   * while it holds SQLite's write lock, so no other connection in the process (a second server sharing the
   * file, as the tests run two) can find the lock held across a turn of the event loop and wait out its
   * busy timeout in vain. With `wait` false it gives way at once, answering undefined, when another
   * connection holds the write lock; the connection's busy timeout is back before anything else runs.
   */
  async writeAlone<T>(work: (run: RunStatement) => T, wait: boolean): Promise<T | undefined> {
    await this.#mutex.lock();
    const session = new Session(this);
    this.#holder = session;
    try {
      this.#commitGroup();
      if (!this.#beginImmediate(wait)) return undefined;
      session.inTransaction = true;
      try {
        const result = work(
          (sql, parameters = []) => this.run<unknown>(session, { sql, parameters }).rows,
        );
        this.#exec('commit');
        return result;
      } catch (error) {
        if (this.#sqlite.inTransaction) this.#exec('rollback');
        throw error;
      }
    } finally {
      this.#release(session);
    }
  }

  /** Begins a transaction with the write lock; false, at once, if it is another's and `wait` is false. */
  #beginImmediate(wait: boolean): boolean {
    if (wait) {
      this.#exec('begin immediate');
      return true;
    }
    const timeout: unknown = this.#sqlite.pragma('busy_timeout', { simple: true });
    this.#sqlite.pragma('busy_timeout = 0');
    try {
      this.#exec('begin immediate');
      return true;
    } catch (error) {
      if (isBusy(error)) return false;
      throw error;
    } finally {
      this.#sqlite.pragma(`busy_timeout = ${Number(timeout)}`);
    }
  }

  beginTransaction(connection: DatabaseConnection): Promise<void> {
    const session = sessionOf(connection);
    if (this.#groupOpen && !this.#sqlite.inTransaction) {
      this.#failGroup(new Error('The group transaction ended before its commit.'));
    }
    if (!this.#groupOpen) {
      // Immediate: the write lock is taken now, so a later write in the group never meets
      // SQLITE_BUSY_SNAPSHOT from another process's commit (the operator CLI, a second server).
      this.#exec('begin immediate');
      this.#groupOpen = true;
    }
    this.#exec(`savepoint ${memberSavepoint}`);
    session.inTransaction = true;
    return Promise.resolve();
  }

  async commitTransaction(connection: DatabaseConnection): Promise<void> {
    const session = sessionOf(connection);
    this.#exec(`release ${memberSavepoint}`);
    session.inTransaction = false;
    const committed = new Promise<void>((resolve, reject) => {
      this.#waiters.push({ resolve, reject });
    });
    // The next transaction may start while this one waits for the group's commit.
    this.#release(session);
    this.#scheduleFlush();
    await committed;
  }

  rollbackTransaction(connection: DatabaseConnection): Promise<void> {
    const session = sessionOf(connection);
    // Kysely rolls back a transaction whose commit failed. Its group is over by then (committed by no one,
    // rolled back by #commitGroup), and the connection may be another transaction's: nothing to undo.
    if (session.released) return Promise.resolve();
    session.inTransaction = false;
    if (this.#groupOpen && this.#sqlite.inTransaction) {
      this.#exec(`rollback to ${memberSavepoint}`);
      this.#exec(`release ${memberSavepoint}`);
      this.#scheduleFlush();
    } else {
      // SQLite rolled the whole group back (a full disk, an I/O error, a trigger's RAISE(ROLLBACK)).
      this.#failGroup(new Error('The group transaction was rolled back by SQLite.'));
    }
    return Promise.resolve();
  }

  async savepoint(connection: DatabaseConnection, name: string): Promise<void> {
    await savepointCommand(connection, 'savepoint', name);
  }

  async rollbackToSavepoint(connection: DatabaseConnection, name: string): Promise<void> {
    await savepointCommand(connection, 'rollback to', name);
  }

  async releaseSavepoint(connection: DatabaseConnection, name: string): Promise<void> {
    await savepointCommand(connection, 'release', name);
  }

  releaseConnection(connection: DatabaseConnection): Promise<void> {
    this.#release(sessionOf(connection));
    return Promise.resolve();
  }

  async destroy(): Promise<void> {
    await this.#mutex.lock();
    try {
      this.#commitGroup();
    } finally {
      this.#statements.close();
    }
  }

  #release(session: Session): void {
    if (session.released) return;
    session.released = true;
    if (this.#holder === session) this.#holder = null;
    this.#mutex.unlock();
  }

  #exec(sql: string): void {
    this.#statements.prepare(sql).run([]);
  }

  #scheduleFlush(): void {
    if (this.#flushScheduled) return;
    this.#flushScheduled = true;
    setImmediate(() => {
      this.#flushScheduled = false;
      void this.#mutex.lock().then(() => {
        try {
          this.#commitGroup();
        } finally {
          this.#mutex.unlock();
        }
      });
    });
  }

  /** Commits the open group, if any, and answers its transactions. Runs with the connection held. */
  #commitGroup(): void {
    if (!this.#groupOpen) return;
    const waiters = this.#waiters;
    this.#waiters = [];
    this.#groupOpen = false;
    try {
      this.#exec('commit');
    } catch (error) {
      try {
        if (this.#sqlite.inTransaction) this.#exec('rollback');
      } catch {
        // The connection itself failed: the next statement reports it.
      }
      for (const waiter of waiters) waiter.reject(error);
      return;
    }
    for (const waiter of waiters) waiter.resolve();
  }

  #failGroup(error: Error): void {
    const waiters = this.#waiters;
    this.#waiters = [];
    this.#groupOpen = false;
    for (const waiter of waiters) waiter.reject(error);
  }
}

/** A savepoint of Kysely's own (`trx.savepoint(name)`), inside the transaction's own savepoint. */
async function savepointCommand(
  connection: DatabaseConnection,
  command: 'savepoint' | 'rollback to' | 'release',
  name: string,
): Promise<void> {
  await connection.executeQuery(CompiledQuery.raw(`${command} "${name.replaceAll('"', '""')}"`));
}

/** Kysely's SQLite dialect, with write transactions that share their commits (ADR 0038). */
export class HearthSqliteDialect implements Dialect {
  readonly #sqlite: SQLite.Database;
  readonly #statements: SqliteDatabase;
  #driver: GroupCommitDriver | undefined;

  constructor(sqlite: SQLite.Database, statements: SqliteDatabase) {
    this.#sqlite = sqlite;
    this.#statements = statements;
  }

  createDriver(): Driver {
    const driver = new GroupCommitDriver(this.#sqlite, this.#statements);
    this.#driver = driver;
    return driver;
  }

  /**
   * Runs one statement now on the driver Kysely was given (`GroupCommitDriver.runNow`); undefined before
   * Kysely has made it, or when the statement must wait.
   */
  runNow(
    sql: string,
    parameters: readonly unknown[],
    inTransaction: boolean,
  ): unknown[] | undefined {
    return this.#driver?.runNow(sql, parameters, inTransaction);
  }

  /** `GroupCommitDriver.writeAlone` on the driver Kysely was given. */
  writeAlone<T>(work: (run: RunStatement) => T, wait: boolean): Promise<T | undefined> {
    if (!this.#driver) throw new Error('Kysely has not made its driver yet.');
    return this.#driver.writeAlone(work, wait);
  }

  createQueryCompiler(): QueryCompiler {
    return new SqliteQueryCompiler();
  }

  createAdapter(): DialectAdapter {
    return new SqliteAdapter();
  }

  createIntrospector(db: Kysely<unknown>): DatabaseIntrospector {
    return new SqliteIntrospector(db);
  }
}

/**
 * Kysely on one SQLite connection through `HearthSqliteDialect`, whose prepared queries run at once
 * where they can (`GroupCommitDriver.runNow`, ADR 0041).
 */
export function sqliteKysely<DB>(sqlite: SQLite.Database, statements: SqliteDatabase): Kysely<DB> {
  const dialect = new HearthSqliteDialect(sqlite, statements);
  const db = new Kysely<DB>({ dialect });
  runDirectly(db, (sql, parameters, inTransaction) =>
    dialect.runNow(sql, parameters, inTransaction),
  );
  dialects.set(db, dialect);
  return db;
}

const dialects = new WeakMap<object, HearthSqliteDialect>();

/**
 * A write transaction run alone (`GroupCommitDriver.writeAlone`) on a database `sqliteKysely` made: the
 * answer of its `work`, or undefined where it gave way to another connection's write lock.
 */
export function writeAlone<T>(
  db: object,
  work: (run: RunStatement) => T,
  options: { wait: boolean },
): Promise<T | undefined> {
  const dialect = dialects.get(db);
  if (!dialect) throw new Error('Not a database of sqliteKysely.');
  return dialect.writeAlone(work, options.wait);
}
