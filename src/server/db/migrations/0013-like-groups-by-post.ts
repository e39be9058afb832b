import { sql, type Kysely } from 'kysely';
import { columnTypes } from './column-types.js';

/**
 * A like's notification leaves the group index (ADR 0051). The group of a like's notification is its post,
 * and the post index already holds the row, ordered by id after the post: the probes of a like's group
 * read it there. The group index keeps the other groups (follows, likes of a comment) and drops the
 * rows of no group (comments, replies, mentions, moderation), which were in it for nothing.
 *
 * - SQLite's index on `postId` ends with each row's id, as every SQLite index ends with its row's key;
 *   PostgreSQL's names `id` as a column, so that a probe of the rows newer than one is a range there too.
 * - The group index's condition names the kind as a literal, as the queries that use it do.
 */
async function groupIndex(db: Kysely<unknown>, rows: 'grouped but likes' | 'all'): Promise<void> {
  await db.schema.dropIndex('notifications_group_idx').execute();
  const index = db.schema
    .createIndex('notifications_group_idx')
    .on('notifications')
    .columns(['recipientId', 'groupKey', 'id']);
  await (
    rows === 'all'
      ? index
      : index.where(sql.ref('groupKey'), 'is not', null).where(sql.ref('kind'), '<>', 'like')
  ).execute();
}

async function postIndex(db: Kysely<unknown>, columns: string[]): Promise<void> {
  if (!columnTypes(db).isPostgres) return;
  await db.schema.dropIndex('notifications_postId_idx').execute();
  await db.schema
    .createIndex('notifications_postId_idx')
    .on('notifications')
    .columns(columns)
    .where(sql.ref('postId'), 'is not', null)
    .execute();
}

export async function up(db: Kysely<unknown>): Promise<void> {
  await postIndex(db, ['postId', 'id']);
  await groupIndex(db, 'grouped but likes');
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await groupIndex(db, 'all');
  await postIndex(db, ['postId']);
}
