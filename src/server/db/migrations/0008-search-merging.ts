import { sql, type Kysely } from 'kysely';
import { columnTypes } from './column-types.js';

/**
 * SQLite's search index merges its segments less eagerly (ADR 0029). FTS5 adds a small segment per
 * committed post and, at its default `automerge` of 4, merges a level as soon as it holds 4 segments:
 * about 400 µs of every new post's commit on a million posts. At 8 it merges half as often and each merge
 * does more at once, about 125 µs a post, while a search reads at most twice as many segments per level
 * (a handful in all). PostgreSQL's GIN index has its own pending list and needs nothing here.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  if (columnTypes(db).isPostgres) return;
  await sql`INSERT INTO posts_search (posts_search, rank) VALUES ('automerge', 8)`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  if (columnTypes(db).isPostgres) return;
  await sql`INSERT INTO posts_search (posts_search, rank) VALUES ('automerge', 4)`.execute(db);
}
