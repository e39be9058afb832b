import { sql, type Kysely } from 'kysely';
import type { Database } from '../../db/schema.js';

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

  /** Indexes up to `limit` posts above the mark and moves the mark past them, in one transaction. */
  indexBatch(limit: number): Promise<number> {
    return this.db.transaction().execute(async (trx) => {
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
    });
  }
}
