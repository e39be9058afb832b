import { sql, type Kysely } from 'kysely';
import type { Database } from '../../db/schema.js';
import { writeAlone, type RunStatement } from '../../db/sqlite-dialect.js';

/** A batch's answer when it would have had to wait for another connection's write lock. */
export const writerBusy = 'busy';

/** SQLite's posts waiting for the search index: those above `search_state.indexedThrough` (migration 0009). */
export class SearchBacklogRepository {
  constructor(private readonly db: Kysely<Database>) {}

  /** A read, without the write lock: is any post above the mark? */
  async pending(): Promise<boolean> {
    const { rows } = await sql<{ pending: number }>`
      select exists (
        select 1 from posts where id > (select "indexedThrough" from search_state where id = 1)
      ) as pending`.execute(this.db);
    return rows[0]?.pending === 1;
  }

  /**
   * Indexes up to `limit` posts above the mark and moves the mark past them, in one write transaction run
   * alone (`writeAlone`): the write lock is never held across a turn of the event loop. With `lock: 'wait'`
   * it waits out another connection's write lock (up to the busy timeout, holding the event loop); with
   * `'skip'` it answers `writerBusy` at once instead and leaves the posts for later.
   */
  async indexBatch(
    limit: number,
    lock: 'wait' | 'skip' = 'wait',
  ): Promise<number | typeof writerBusy> {
    const indexed = await writeAlone(this.db, (run) => indexInto(run, limit), {
      wait: lock === 'wait',
    });
    return indexed ?? writerBusy;
  }
}

/** One batch, inside a write transaction. */
function indexInto(run: RunStatement, limit: number): number {
  const [batch] = run(
    `select max(id) as last, count(*) as indexed from (
      select id from posts
      where id > (select "indexedThrough" from search_state where id = 1)
      order by id limit ?
    )`,
    [limit],
  ) as { last: number | null; indexed: number }[];
  if (!batch || batch.last === null) return 0;
  run(
    `insert into posts_search (rowid, body, authorId)
    select id, body, "authorId" from posts
    where id > (select "indexedThrough" from search_state where id = 1) and id <= ?
    order by id`,
    [batch.last],
  );
  run('update search_state set "indexedThrough" = ? where id = 1', [batch.last]);
  return batch.indexed;
}
