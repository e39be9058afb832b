import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import SQLite from 'better-sqlite3';
import { CompiledQuery, sql, type Kysely, type SqliteDatabase } from 'kysely';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { prepare } from './prepared.js';
import {
  GroupCommitDriver,
  sqliteKysely,
  writeAlone,
  type RunStatement,
} from './sqlite-dialect.js';
import { cachedStatements } from './sqlite-statements.js';

interface Tables {
  notes: { id: string };
}

let dir: string;
let server: SQLite.Database;
let observer: SQLite.Database;
let db: Kysely<Tables>;
/** Every statement the server's connection ran, in order. */
let ran: string[];

beforeEach(() => {
  dir = mkdtempSync(path.join(tmpdir(), 'hearth-group-commit-'));
  const file = path.join(dir, 'test.db');
  server = new SQLite(file);
  server.pragma('journal_mode = WAL');
  server.exec(`create table notes (id text primary key);
    create trigger refuse before insert on notes when new.id = 'poison'
    begin select raise(rollback, 'refused'); end;
    create table replies (id text primary key,
      noteId text references notes (id) deferrable initially deferred);`);
  server.pragma('foreign_keys = ON');
  const statements = cachedStatements(server);
  const recording: SqliteDatabase = {
    close: () => {
      statements.close();
    },
    prepare: (text) => {
      ran.push(text);
      return statements.prepare(text);
    },
  };
  ran = [];
  db = sqliteKysely<Tables>(server, recording);
  // Another connection to the same file, as another process would read it.
  observer = new SQLite(file, { readonly: true });
});

afterEach(async () => {
  observer.close();
  await db.destroy();
  rmSync(dir, { recursive: true, force: true });
});

const committed = () =>
  (observer.prepare('select id from notes order by id').all() as { id: string }[]).map(
    (row) => row.id,
  );

/** A write transaction that inserts `id`, and records whether its row was committed when it answered. */
function write(id: string, seen: Map<string, boolean>) {
  return db
    .transaction()
    .execute(async (trx) => {
      await trx.insertInto('notes').values({ id }).execute();
    })
    .then(() => {
      seen.set(id, committed().includes(id));
    });
}

const count = (text: string) => ran.filter((statement) => statement === text).length;

describe('SQLite write transactions sharing a commit (ADR 0038)', () => {
  it('commits transactions that run back to back once, and answers each only once it is committed', async () => {
    const seen = new Map<string, boolean>();
    await Promise.all(['a', 'b', 'c', 'd', 'e'].map((id) => write(id, seen)));
    expect(committed()).toEqual(['a', 'b', 'c', 'd', 'e']);
    expect([...seen.values()]).toEqual([true, true, true, true, true]);
    expect(count('begin immediate')).toBe(1);
    expect(count('commit')).toBe(1);
    expect(count('savepoint hearth_write')).toBe(5);
  });

  it('commits a lone transaction before it answers', async () => {
    const seen = new Map<string, boolean>();
    await write('alone', seen);
    expect(seen.get('alone')).toBe(true);
    await write('later', seen);
    expect(seen.get('later')).toBe(true);
    expect(count('commit')).toBe(2);
  });

  it('rolls back a failed transaction alone', async () => {
    const seen = new Map<string, boolean>();
    const failing = db.transaction().execute(async (trx) => {
      await trx.insertInto('notes').values({ id: 'undone' }).execute();
      throw new Error('changed its mind');
    });
    const results = await Promise.allSettled([write('first', seen), failing, write('third', seen)]);
    expect(results.map((result) => result.status)).toEqual(['fulfilled', 'rejected', 'fulfilled']);
    expect(committed()).toEqual(['first', 'third']);
    expect(count('commit')).toBe(1);
  });

  it('fails every transaction of a group that SQLite rolled back, and goes on afterwards', async () => {
    const seen = new Map<string, boolean>();
    const results = await Promise.allSettled([write('before', seen), write('poison', seen)]);
    // The trigger's RAISE(ROLLBACK) ends the whole group: the first write was never committed, so it
    // must not be answered as if it were.
    expect(results.map((result) => result.status)).toEqual(['rejected', 'rejected']);
    expect(committed()).toEqual([]);
    await write('after', seen);
    expect(committed()).toEqual(['after']);
  });

  it('commits the group before a write outside a transaction, which then commits on its own', async () => {
    const seen = new Map<string, boolean>();
    const grouped = write('grouped', seen);
    // Runs after the transaction released the connection, before the group's commit.
    await new Promise((resolve) => {
      setTimeout(resolve, 0);
    });
    const single = db
      .insertInto('notes')
      .values({ id: 'single' })
      .execute()
      .then(() => committed().includes('single'));
    expect(await single).toBe(true);
    await grouped;
    expect(seen.get('grouped')).toBe(true);
    expect(committed()).toEqual(['grouped', 'single']);
  });

  it('reads what the group wrote without committing it early', async () => {
    const inGroup = db.transaction().execute(async (trx) => {
      await trx.insertInto('notes').values({ id: 'pending' }).execute();
    });
    const read = sql<{ id: string }>`select id from notes`.execute(db);
    await Promise.all([inGroup, read]);
    expect((await read).rows.map((row) => row.id)).toEqual(['pending']);
    expect(count('commit')).toBe(1);
  });

  it('streams the rows of a query', async () => {
    await db
      .insertInto('notes')
      .values([{ id: 'x' }, { id: 'y' }])
      .execute();
    const ids: string[] = [];
    for await (const row of db.selectFrom('notes').select('id').orderBy('id').stream()) {
      ids.push(row.id);
    }
    expect(ids).toEqual(['x', 'y']);
  });

  it('fails every transaction of a group whose commit fails, and lets the next group be', async () => {
    // A deferred foreign key is checked at the commit: the group's COMMIT fails.
    const dangling = db.transaction().execute(async (trx) => {
      await sql`insert into replies (id, noteId) values ('r', 'missing')`.execute(trx);
    });
    const seen = new Map<string, boolean>();
    const results = await Promise.allSettled([dangling, write('beside', seen)]);
    expect(results.map((result) => result.status)).toEqual(['rejected', 'rejected']);
    expect(committed()).toEqual([]);
    await write('next', seen);
    expect(committed()).toEqual(['next']);
  });

  it('undoes nothing when asked to roll back a transaction that already let the connection go', async () => {
    // Kysely asks so when a commit fails; by then another transaction may be using the connection.
    const driver = new GroupCommitDriver(server, cachedStatements(server));
    const insert = (id: string) => CompiledQuery.raw(`insert into notes (id) values ('${id}')`);
    const first = await driver.acquireConnection();
    await driver.beginTransaction(first);
    await first.executeQuery(insert('first'));
    const firstCommitted = driver.commitTransaction(first);
    const second = await driver.acquireConnection();
    await driver.beginTransaction(second);
    await second.executeQuery(insert('second'));
    await driver.rollbackTransaction(first);
    const secondCommitted = driver.commitTransaction(second);
    await driver.releaseConnection(second);
    await Promise.all([firstCommitted, secondCommitted]);
    expect(committed()).toEqual(['first', 'second']);
  });
});

describe('prepared queries run at once on the connection (ADR 0041)', () => {
  const allNotes = () => prepare(db, () => db.selectFrom('notes').select('id').orderBy('id'));
  const insertNote = () =>
    prepare(db, (p: { id: string }) => db.insertInto('notes').values({ id: p.id }));
  /** A transaction that inserts `id` and holds the connection until `gate` opens, then fails if told. */
  function holding(id: string, gate: Promise<'commit' | 'fail'>) {
    return db.transaction().execute(async (trx) => {
      await trx.insertInto('notes').values({ id }).execute();
      if ((await gate) === 'fail') throw new Error('changed its mind');
    });
  }

  it('runs without Kysely’s executor while nobody holds the connection', async () => {
    await db.insertInto('notes').values({ id: 'kept' }).execute();
    const executor = vi.spyOn(db, 'executeQuery');
    expect(await allNotes().execute({})).toEqual([{ id: 'kept' }]);
    expect(executor).not.toHaveBeenCalled();
  });

  it('waits for a transaction that holds the connection, and never reads what it undoes', async () => {
    let open!: (outcome: 'commit' | 'fail') => void;
    const held = holding('undone', new Promise((resolve) => (open = resolve)));
    // Let the transaction take the connection and insert its row.
    await new Promise((resolve) => setTimeout(resolve, 0));
    const executor = vi.spyOn(db, 'executeQuery');
    const read = allNotes().execute({});
    expect(executor).toHaveBeenCalledTimes(1);
    open('fail');
    await expect(held).rejects.toThrow('changed its mind');
    expect(await read).toEqual([]);
  });

  it('runs in the transaction it is given, and its write goes with that transaction', async () => {
    const insert = insertNote();
    const undone = db.transaction().execute(async (trx) => {
      const executor = vi.spyOn(trx, 'executeQuery');
      await insert.execute({ id: 'in-undone' }, trx);
      expect(executor).not.toHaveBeenCalled();
      expect(await allNotes().execute({}, trx)).toEqual([{ id: 'in-undone' }]);
      throw new Error('changed its mind');
    });
    await expect(undone).rejects.toThrow('changed its mind');
    await db.transaction().execute(async (trx) => {
      await insert.execute({ id: 'in-kept' }, trx);
    });
    expect(committed()).toEqual(['in-kept']);
    expect(count('savepoint hearth_write')).toBe(2);
  });

  it('commits the open group before a write of its own, as a write through Kysely does', async () => {
    const seen = new Map<string, boolean>();
    const grouped = write('grouped', seen);
    // Runs after the transaction released the connection, before the group's commit.
    await new Promise((resolve) => {
      setTimeout(resolve, 0);
    });
    await insertNote().execute({ id: 'single' });
    expect(committed()).toEqual(['grouped', 'single']);
    await grouped;
    expect(seen.get('grouped')).toBe(true);
  });
});

describe('a write transaction run alone (the search backlog’s batches)', () => {
  let other: SQLite.Database;
  beforeEach(() => {
    // Another connection in this process, as a second server sharing the file: it never waits.
    other = new SQLite(path.join(dir, 'test.db'));
    other.pragma('busy_timeout = 0');
  });
  afterEach(() => {
    other.close();
  });

  const insert = (run: RunStatement, id: string) => run('insert into notes (id) values (?)', [id]);
  /** Whether the other connection could take the write lock just now. */
  const lockFree = () => {
    try {
      other.exec('begin immediate');
      other.exec('rollback');
      return true;
    } catch {
      return false;
    }
  };
  /** Looks at the write lock after every microtask, and every turn of the event loop, while `work` is under way. */
  async function lockSeen(work: Promise<unknown>): Promise<boolean[]> {
    const state = { settled: false };
    const settle = () => {
      state.settled = true;
    };
    work.then(settle, settle);
    const seen: boolean[] = [];
    while (!state.settled) {
      seen.push(lockFree());
      await (seen.length % 10 === 0
        ? new Promise((resolve) => setImmediate(resolve))
        : Promise.resolve());
    }
    await work;
    return seen;
  }

  it('never holds the write lock while anything else in the process runs, as a transaction through Kysely does', async () => {
    const alone = writeAlone(db, (run) => insert(run, 'alone'), { wait: true });
    expect(await lockSeen(alone)).not.toContain(false);
    const grouped = db.transaction().execute(async (trx) => {
      await trx.insertInto('notes').values({ id: 'grouped' }).execute();
    });
    expect(await lockSeen(grouped)).toContain(false);
    expect(committed()).toEqual(['alone', 'grouped']);
  });

  it('commits the open group first, and answers what its work returns once committed', async () => {
    const seen = new Map<string, boolean>();
    const grouped = write('grouped', seen);
    // The transaction has let the connection go; its group waits for its commit.
    await new Promise((resolve) => setTimeout(resolve, 0));
    const answer = await writeAlone(
      db,
      (run) => {
        insert(run, 'alone');
        return run('select count(*) as notes from notes');
      },
      { wait: true },
    );
    expect(answer).toEqual([{ notes: 2 }]);
    expect(committed()).toEqual(['alone', 'grouped']);
    await grouped;
    expect(seen.get('grouped')).toBe(true);
  });

  it("gives way at once to another connection's write lock, and leaves the busy timeout as it was", async () => {
    server.pragma('busy_timeout = 60000');
    other.exec('begin immediate');
    try {
      expect(
        await writeAlone(db, (run) => insert(run, 'skipped'), { wait: false }),
      ).toBeUndefined();
    } finally {
      other.exec('commit');
    }
    expect(server.pragma('busy_timeout', { simple: true })).toBe(60_000);
    expect(await writeAlone(db, (run) => insert(run, 'later'), { wait: false })).toEqual([]);
    expect(committed()).toEqual(['later']);
  });

  it('rolls back work that fails, and lets the connection go', async () => {
    const failing = writeAlone(
      db,
      (run) => {
        insert(run, 'half');
        throw new Error('changed its mind');
      },
      { wait: true },
    );
    await expect(failing).rejects.toThrow('changed its mind');
    await db.insertInto('notes').values({ id: 'after' }).execute();
    expect(committed()).toEqual(['after']);
  });

  it('waits for a transaction that holds the connection, and sees what it committed', async () => {
    let open!: () => void;
    const held = db.transaction().execute(async (trx) => {
      await trx.insertInto('notes').values({ id: 'held' }).execute();
      await new Promise<void>((resolve) => (open = resolve));
    });
    await new Promise((resolve) => setTimeout(resolve, 0));
    const alone = writeAlone(db, (run) => run('select id from notes order by id'), { wait: true });
    open();
    await held;
    expect(await alone).toEqual([{ id: 'held' }]);
  });
});
