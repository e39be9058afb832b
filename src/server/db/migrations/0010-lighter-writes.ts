import { sql, type Kysely } from 'kysely';

/**
 * Fewer index entries for each like and each notification (ADR 0039). Every index a row is in costs its
 * write a B-tree insertion, and on a large database usually a page of its own in the commit: a like wrote
 * eight such pages, on random spots of eight indexes.
 *
 * - A like had two indexes over the same two columns: `(postId, userId)`, unique, and `(userId, postId)`
 *   for "which of these do I like". One unique `(userId, postId)` index does both: a uniqueness holds
 *   whatever the order of its columns, and each dialect's `ON CONFLICT (postId, userId)` finds it, as both
 *   match a conflict target to an index's columns in any order. Lookups by post use `(postId, id)`. The
 *   same for comment likes.
 * - The Mentions tab's index, `(recipientId, kind, id)`, held every notification; it now holds mentions
 *   alone, as `(recipientId, id) WHERE kind = 'mention'`. The tab's query names the kind as a literal, so
 *   any plan of it, even one made before its values are bound, knows that the index covers it.
 * - The indexes that find a deleted post's or comment's notifications hold only rows that have one: no
 *   follow has a post, and no like of a post has a comment. A lookup by equality implies the column is not
 *   null, so both planners (and the cascades of the foreign keys) still use them.
 */
const likeTables = [
  ['post_likes', 'postId'],
  ['comment_likes', 'commentId'],
] as const;

const aboutColumns = ['postId', 'commentId'] as const;

/** Builds anew the index of the notifications about a post or a comment: of the rows that have one, or all. */
async function rebuildAboutIndex(
  db: Kysely<unknown>,
  column: (typeof aboutColumns)[number],
  rows: 'with one' | 'all',
): Promise<void> {
  const name = `notifications_${column}_idx`;
  await db.schema.dropIndex(name).execute();
  const index = db.schema.createIndex(name).on('notifications').column(column);
  await (rows === 'with one' ? index.where(sql.ref(column), 'is not', null) : index).execute();
}

export async function up(db: Kysely<unknown>): Promise<void> {
  for (const [table, target] of likeTables) {
    await db.schema.dropIndex(`${table}_user_idx`).execute();
    await db.schema
      .createIndex(`${table}_user_idx`)
      .on(table)
      .columns(['userId', target])
      .unique()
      .execute();
    await db.schema.dropIndex(`${table}_unique_idx`).execute();
  }
  await db.schema.dropIndex('notifications_kind_idx').execute();
  await db.schema
    .createIndex('notifications_mentions_idx')
    .on('notifications')
    .columns(['recipientId', 'id'])
    .where(sql.ref('kind'), '=', 'mention')
    .execute();
  for (const column of aboutColumns) await rebuildAboutIndex(db, column, 'with one');
}

export async function down(db: Kysely<unknown>): Promise<void> {
  for (const column of aboutColumns) await rebuildAboutIndex(db, column, 'all');
  await db.schema.dropIndex('notifications_mentions_idx').execute();
  await db.schema
    .createIndex('notifications_kind_idx')
    .on('notifications')
    .columns(['recipientId', 'kind', 'id'])
    .execute();
  for (const [table, target] of likeTables) {
    await db.schema
      .createIndex(`${table}_unique_idx`)
      .on(table)
      .columns([target, 'userId'])
      .unique()
      .execute();
    await db.schema.dropIndex(`${table}_user_idx`).execute();
    await db.schema
      .createIndex(`${table}_user_idx`)
      .on(table)
      .columns(['userId', target])
      .execute();
  }
}
