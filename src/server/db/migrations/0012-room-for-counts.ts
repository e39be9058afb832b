import { sql, type Kysely } from 'kysely';
import { columnTypes } from './column-types.js';

/**
 * PostgreSQL: room on each page of the tables whose counts change with every like, comment, follow and
 * post (ADR 0044). An update of a row writes a new version of it; when that version fits on the same page
 * and no indexed value changed, it is a heap-only (HOT) update, and no index is touched. With pages
 * packed full it never fits, so each like wrote an entry into every index of `posts`: its B-trees and the
 * GIN index of its words. A fill factor leaves that room in pages written from now on (existing pages
 * gain it as they are rewritten). SQLite updates a row in place and needs nothing here.
 */
export const countTables = { posts: 85, comments: 85, users: 85 } as const;

export async function up(db: Kysely<unknown>): Promise<void> {
  if (!columnTypes(db).isPostgres) return;
  for (const [table, fillfactor] of Object.entries(countTables)) {
    await sql`ALTER TABLE ${sql.table(table)} SET (fillfactor = ${sql.lit(fillfactor)})`.execute(
      db,
    );
  }
}

export async function down(db: Kysely<unknown>): Promise<void> {
  if (!columnTypes(db).isPostgres) return;
  for (const table of Object.keys(countTables)) {
    await sql`ALTER TABLE ${sql.table(table)} RESET (fillfactor)`.execute(db);
  }
}
