import { sql, type Kysely } from 'kysely';

/**
 * A like's notification is written when its recipient next reads their bell (ADR 0055). A like whose
 * author hears of it in the app and by no mail names that author in `pendingRecipientId`, and the like's
 * row is all it writes; reading the bell turns that account's pending likes into notifications and
 * clears the column. The index holds the pending likes only, so it stays as small as what is unread
 * and unseen. Likes made before this migration were notified as they happened: none is pending.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('post_likes').addColumn('pendingRecipientId', 'text').execute();
  await db.schema
    .createIndex('post_likes_pending_idx')
    .on('post_likes')
    .columns(['pendingRecipientId', 'id'])
    .where(sql.ref('pendingRecipientId'), 'is not', null)
    .execute();
}

/** Back to a notification written with each like: the pending ones are dropped with the column. */
export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropIndex('post_likes_pending_idx').execute();
  await db.schema.alterTable('post_likes').dropColumn('pendingRecipientId').execute();
}
