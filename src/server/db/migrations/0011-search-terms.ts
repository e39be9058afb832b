import { sql, type Kysely } from 'kysely';
import { columnTypes } from './column-types.js';

/**
 * SQLite: a read-only view of the search index's vocabulary (ADR 0043), through which a search finds the
 * words that an unfinished last word may become. An `fts5vocab` table stores nothing of its own: it reads
 * `posts_search` as it is. PostgreSQL needs nothing here.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  if (columnTypes(db).isPostgres) return;
  await sql`CREATE VIRTUAL TABLE posts_search_terms USING fts5vocab(posts_search, row)`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  if (columnTypes(db).isPostgres) return;
  await sql`DROP TABLE posts_search_terms`.execute(db);
}
