import { sql, type Kysely, type Transaction } from 'kysely';
import { sqliteBusyTimeoutMs } from '../../db/database.js';
import type { Database } from '../../db/schema.js';

/** A batch's answer when it would have had to wait for another connection's write lock. */
export const writerBusy = 'busy';

/** Whether SQLite refused the write lock because another connection holds it. */
const isBusy = (error: unknown): boolean =>
  error instanceof Error && 'code' in error && error.code === 'SQLITE_BUSY';

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
   * Indexes up to `limit` posts above the mark and moves the mark past them, in one transaction. With
   * `lock: 'wait'` it waits out another connection's write lock (up to the busy timeout, holding the event
   * loop); with `'skip'` it answers `writerBusy` at once instead and leaves the posts for later.
   */
  indexBatch(limit: number, lock: 'wait' | 'skip' = 'wait'): Promise<number | typeof writerBusy> {
    if (lock === 'wait') return this.db.transaction().execute((trx) => indexInto(trx, limit));
    // The connection is held for the whole callback, so no other query of this server's runs meanwhile
    // with the timeout at zero.
    return this.db.connection().execute(async (connection) => {
      await sql`pragma busy_timeout = 0`.execute(connection);
      try {
        return await connection.transaction().execute((trx) => indexInto(trx, limit));
      } catch (error) {
        if (isBusy(error)) return writerBusy;
        throw error;
      } finally {
        await sql.raw(`pragma busy_timeout = ${sqliteBusyTimeoutMs}`).execute(connection);
      }
    });
  }
}

/** One batch, in the caller's write transaction. */
async function indexInto(trx: Transaction<Database>, limit: number): Promise<number> {
  const { rows } = await sql<{ last: number | null; indexed: number }>`
    select max(id) as last, count(*) as indexed from (
      select id from posts
      where id > (select "indexedThrough" from search_state where id = 1)
      order by id limit ${limit}
    )`.execute(trx);
  const batch = rows[0];
  if (!batch || batch.last === null) return 0;
  await sql`insert into posts_search (rowid, body, authorId)
    select id, body, "authorId" from posts
    where id > (select "indexedThrough" from search_state where id = 1) and id <= ${batch.last}
    order by id`.execute(trx);
  await sql`update search_state set "indexedThrough" = ${batch.last} where id = 1`.execute(trx);
  return batch.indexed;
}
