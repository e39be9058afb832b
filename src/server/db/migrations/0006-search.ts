import { sql, type Kysely } from 'kysely';
import { columnTypes } from './column-types.js';

/**
 * Search (issue: notifications and search §3, ADR 0018), built into each database and kept current by the
 * database itself, so every write path (a post, an edit, a deletion, an account's deletion by cascade) is
 * covered without the application remembering to.
 *
 * - SQLite: an FTS5 index over posts (external content: the text is stored once, in posts), written by
 *   triggers. It also indexes each post's author, so `from:` narrows the full-text match itself instead of
 *   checking a common word's every match. Prefix indexes of 2 and 3 characters keep as-you-type prefixes
 *   cheap. Built here for the posts that exist.
 * - PostgreSQL: a stored generated `tsvector` ('simple': no stemming or stop words, so any language
 *   works) with a GIN index; PostgreSQL recomputes it in the same UPDATE that changes the text.
 * - People: indexes that serve case-insensitive prefix matches on username and names.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  const { isPostgres } = columnTypes(db);
  if (isPostgres) {
    await sql`ALTER TABLE posts ADD COLUMN "searchVector" tsvector
      GENERATED ALWAYS AS (to_tsvector('simple', body)) STORED`.execute(db);
    await sql`CREATE INDEX posts_search_idx ON posts USING gin ("searchVector")`.execute(db);
    // Usernames are stored lower-cased (auth.ts); names are matched on their lower-cased form.
    await sql`CREATE INDEX users_username_prefix_idx ON users (username text_pattern_ops)`.execute(
      db,
    );
    for (const column of ['firstName', 'lastName', 'displayName']) {
      await sql`CREATE INDEX ${sql.id(`users_${column}_prefix_idx`)}
        ON users (lower(${sql.ref(column)}) text_pattern_ops)`.execute(db);
    }
    return;
  }

  await sql`CREATE VIRTUAL TABLE posts_search USING fts5(
    body, authorId,
    content='posts', content_rowid='id',
    tokenize='unicode61 remove_diacritics 2',
    prefix='2 3'
  )`.execute(db);
  await sql`CREATE TRIGGER posts_search_insert AFTER INSERT ON posts BEGIN
    INSERT INTO posts_search (rowid, body, authorId) VALUES (new.id, new.body, new.authorId);
  END`.execute(db);
  await sql`CREATE TRIGGER posts_search_delete AFTER DELETE ON posts BEGIN
    INSERT INTO posts_search (posts_search, rowid, body, authorId)
      VALUES ('delete', old.id, old.body, old.authorId);
  END`.execute(db);
  // Only a change of the text re-indexes a post: likes and comment counts update the row too.
  await sql`CREATE TRIGGER posts_search_update AFTER UPDATE OF body, authorId ON posts BEGIN
    INSERT INTO posts_search (posts_search, rowid, body, authorId)
      VALUES ('delete', old.id, old.body, old.authorId);
    INSERT INTO posts_search (rowid, body, authorId) VALUES (new.id, new.body, new.authorId);
  END`.execute(db);
  await sql`INSERT INTO posts_search (posts_search) VALUES ('rebuild')`.execute(db);
  // SQLite's LIKE ignores ASCII case, and uses an index for a prefix only when it is NOCASE-collated.
  for (const column of ['username', 'firstName', 'lastName', 'displayName']) {
    await sql`CREATE INDEX ${sql.id(`users_${column}_prefix_idx`)}
      ON users (${sql.ref(column)} COLLATE NOCASE)`.execute(db);
  }
}

export async function down(db: Kysely<unknown>): Promise<void> {
  const { isPostgres } = columnTypes(db);
  for (const column of ['username', 'firstName', 'lastName', 'displayName']) {
    await db.schema.dropIndex(`users_${column}_prefix_idx`).execute();
  }
  if (isPostgres) {
    await db.schema.dropIndex('posts_search_idx').execute();
    await db.schema.alterTable('posts').dropColumn('searchVector').execute();
    return;
  }
  for (const trigger of ['posts_search_insert', 'posts_search_delete', 'posts_search_update']) {
    await sql`DROP TRIGGER ${sql.id(trigger)}`.execute(db);
  }
  await sql`DROP TABLE posts_search`.execute(db);
}
