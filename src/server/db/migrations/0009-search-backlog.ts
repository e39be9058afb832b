import { sql, type Kysely } from 'kysely';
import { columnTypes } from './column-types.js';

/**
 * SQLite indexes new posts for search in batches instead of in each post's own commit (ADR 0030). FTS5
 * writes a segment for every transaction that changed the index, and merges segments as they pile up:
 * about 300 µs of a new post's commit on a million posts, where a batch of a few hundred posts costs a
 * few µs each.
 *
 * - `search_state.indexedThrough` is the highest post id the index holds. Post ids only grow and are
 *   never reused (AUTOINCREMENT) and SQLite commits one writer at a time, so every post above the mark
 *   is waiting to be indexed and every post at or below it is indexed.
 * - A new post no longer touches the index: `search-backlog.ts` indexes the posts above the mark in a
 *   batch and moves the mark, in one transaction, every second and before each post search.
 * - Edits and deletions still change the index at once, for posts it holds (at or below the mark); a
 *   post still waiting is indexed later with its text as it is then, and a deleted one never is.
 *
 * PostgreSQL computes each post's `tsvector` in its own row and needs nothing here.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  if (columnTypes(db).isPostgres) return;
  await sql`CREATE TABLE search_state (
    id integer PRIMARY KEY CHECK (id = 1),
    "indexedThrough" integer NOT NULL
  )`.execute(db);
  // Every existing post is indexed (migration 0006 built the index, triggers kept it).
  await sql`INSERT INTO search_state (id, "indexedThrough")
    SELECT 1, coalesce(max(id), 0) FROM posts`.execute(db);
  for (const trigger of ['posts_search_insert', 'posts_search_delete', 'posts_search_update']) {
    await sql`DROP TRIGGER ${sql.id(trigger)}`.execute(db);
  }
  await sql`CREATE TRIGGER posts_search_delete AFTER DELETE ON posts
    WHEN old.id <= (SELECT "indexedThrough" FROM search_state WHERE id = 1) BEGIN
    INSERT INTO posts_search (posts_search, rowid, body, authorId)
      VALUES ('delete', old.id, old.body, old.authorId);
  END`.execute(db);
  await sql`CREATE TRIGGER posts_search_update AFTER UPDATE OF body, authorId ON posts
    WHEN old.id <= (SELECT "indexedThrough" FROM search_state WHERE id = 1) BEGIN
    INSERT INTO posts_search (posts_search, rowid, body, authorId)
      VALUES ('delete', old.id, old.body, old.authorId);
    INSERT INTO posts_search (rowid, body, authorId) VALUES (new.id, new.body, new.authorId);
  END`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  if (columnTypes(db).isPostgres) return;
  // The posts still waiting go into the index first: the restored triggers assume it holds every post.
  await sql`INSERT INTO posts_search (rowid, body, authorId)
    SELECT id, body, "authorId" FROM posts
    WHERE id > (SELECT "indexedThrough" FROM search_state WHERE id = 1) ORDER BY id`.execute(db);
  for (const trigger of ['posts_search_delete', 'posts_search_update']) {
    await sql`DROP TRIGGER ${sql.id(trigger)}`.execute(db);
  }
  await sql`DROP TABLE search_state`.execute(db);
  await sql`CREATE TRIGGER posts_search_insert AFTER INSERT ON posts BEGIN
    INSERT INTO posts_search (rowid, body, authorId) VALUES (new.id, new.body, new.authorId);
  END`.execute(db);
  await sql`CREATE TRIGGER posts_search_delete AFTER DELETE ON posts BEGIN
    INSERT INTO posts_search (posts_search, rowid, body, authorId)
      VALUES ('delete', old.id, old.body, old.authorId);
  END`.execute(db);
  await sql`CREATE TRIGGER posts_search_update AFTER UPDATE OF body, authorId ON posts BEGIN
    INSERT INTO posts_search (posts_search, rowid, body, authorId)
      VALUES ('delete', old.id, old.body, old.authorId);
    INSERT INTO posts_search (rowid, body, authorId) VALUES (new.id, new.body, new.authorId);
  END`.execute(db);
}
