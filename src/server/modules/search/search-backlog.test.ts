import path from 'node:path';
import SQLite from 'better-sqlite3';
import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { DatabaseHandle } from '../../db/database.js';
import {
  createTestApp,
  databaseTargets,
  openAppDatabase,
  signUp,
  type TestApp,
} from '../../test/harness.js';
import { SearchBacklogRepository } from './search-backlog.repository.js';
import { SearchBacklog, searchBacklogBatch } from './search-backlog.js';

const sqlite = databaseTargets.find((target) => target.name === 'sqlite');
if (!sqlite) throw new Error('the SQLite target is always there');

/**
 * SQLite's batched search index (migration 0009). The app is built to create the schema and an author,
 * then closed, so that no interval of its own indexes behind the test's back: each step is the test's.
 */
describe("SQLite's search backlog", () => {
  let t: TestApp;
  let database: DatabaseHandle;
  let authorId: string;
  let backlog: SearchBacklog;
  /** A plain connection to the same file, to look at the index as SQLite keeps it. */
  let raw: SQLite.Database;

  beforeAll(async () => {
    t = await createTestApp(sqlite);
    authorId = (await signUp(t.app)).user.uid;
    await t.app.close();
    database = openAppDatabase(t);
    raw = new SQLite(path.join(t.config.dataDir, 'hearth.db'));
    backlog = newBacklog();
  });

  afterAll(async () => {
    await backlog.close();
    raw.close();
    await database.close();
    await t.close();
  });

  const newBacklog = () =>
    new SearchBacklog(
      new SearchBacklogRepository(database.db),
      'sqlite',
      pino({ level: 'silent' }),
    );

  const write = async (body: string): Promise<number> => {
    const row = await database.db
      .insertInto('posts')
      .values({ authorId, body, createdAt: new Date().toISOString() })
      .returning('id')
      .executeTakeFirstOrThrow();
    return Number(row.id);
  };

  /** Ids the index finds for a word, by its own match alone. */
  const found = (word: string): number[] =>
    raw
      .prepare<[string], { id: number }>(
        'select rowid as id from posts_search where posts_search match ? order by rowid',
      )
      .all(`body : ${word}`)
      .map((row) => row.id);

  const mark = (): number | undefined =>
    raw
      .prepare<[], { mark: number }>(
        'select "indexedThrough" as mark from search_state where id = 1',
      )
      .get()?.mark;

  /** FTS5 compares the index with the posts it was built from; any drift fails the statement. */
  const intact = () => {
    raw
      .prepare("insert into posts_search (posts_search, rank) values ('integrity-check', 1)")
      .run();
  };

  it('leaves a new post out of the index until a batch indexes it, then moves the mark past it', async () => {
    const id = await write('first kindling');
    expect(found('kindling')).toEqual([]);
    expect(mark()).toBeLessThan(id);
    await backlog.flush();
    expect(found('kindling')).toEqual([id]);
    expect(mark()).toBe(id);
    intact();
  });

  it('indexes a waiting post with the text it has by then, and never a waiting post that was deleted', async () => {
    const edited = await write('draft ember');
    const deleted = await write('gone ember');
    await database.db
      .updateTable('posts')
      .set({ body: 'final ember' })
      .where('id', '=', edited)
      .execute();
    await database.db.deleteFrom('posts').where('id', '=', deleted).execute();
    await backlog.flush();
    expect(found('ember')).toEqual([edited]);
    expect(found('draft')).toEqual([]);
    expect(found('final')).toEqual([edited]);
    expect(found('gone')).toEqual([]);
    intact();
  });

  it('changes the index at once for an indexed post that is edited or deleted', async () => {
    const edited = await write('old hearthstone');
    const deleted = await write('doomed hearthstone');
    await backlog.flush();
    expect(found('hearthstone')).toEqual([edited, deleted]);
    await database.db
      .updateTable('posts')
      .set({ body: 'new hearthstone' })
      .where('id', '=', edited)
      .execute();
    await database.db.deleteFrom('posts').where('id', '=', deleted).execute();
    expect(found('hearthstone')).toEqual([edited]);
    expect(found('old')).toEqual([]);
    expect(found('new')).toEqual([edited]);
    intact();
  });

  it('works off a backlog longer than a batch, and concurrent flushes index each post once', async () => {
    const ids: number[] = [];
    for (let index = 0; index < searchBacklogBatch * 2 + 7; index += 1)
      ids.push(await write(`cinder ${index}`));
    await Promise.all([backlog.flush(), backlog.flush(), backlog.flush()]);
    expect(found('cinder')).toEqual(ids);
    expect(mark()).toBe(ids.at(-1));
    intact();
  });

  it('indexes what was left waiting when it starts, as after a restart', async () => {
    const id = await write('leftover spark');
    const restarted = newBacklog();
    restarted.start();
    await expect.poll(() => found('spark')).toEqual([id]);
    await restarted.close();
  });

  it("gives way at once, on its interval, to another connection's write lock, and carries on after it", async () => {
    const id = await write('patient tinder');
    const warnings: unknown[] = [];
    const background = new SearchBacklog(
      new SearchBacklogRepository(database.db),
      'sqlite',
      pino({ level: 'warn' }, { write: (line: string) => warnings.push(JSON.parse(line)) }),
    );
    // The operator CLI, say, in the middle of a write: a blocking batch would wait the busy timeout out
    // and fail (a warning); this one leaves the post for the next run.
    raw.exec('begin immediate');
    try {
      await background.flush('skip');
      expect(found('tinder')).toEqual([]);
      expect(mark()).toBeLessThan(id);
    } finally {
      raw.exec('commit');
    }
    expect(warnings).toEqual([]);
    await background.flush('skip');
    expect(found('tinder')).toEqual([id]);
    await background.close();
  });

  it('lets a search go ahead on what is indexed when the index cannot be brought up to date', async () => {
    const id = await write('stranded flint');
    const warnings: unknown[] = [];
    const failing = new SearchBacklog(
      Object.assign(new SearchBacklogRepository(database.db), {
        indexBatch: () => Promise.reject(new Error('database is locked')),
      }),
      'sqlite',
      pino({ level: 'warn' }, { write: (line: string) => warnings.push(JSON.parse(line)) }),
    );
    await expect(failing.flush()).rejects.toThrow('database is locked');
    await expect(failing.beforeSearch()).resolves.toBeUndefined();
    expect(warnings).toHaveLength(1);
    expect(found('flint')).toEqual([]);
    await backlog.flush();
    expect(found('flint')).toEqual([id]);
  });
});
