import { sql, type Kysely } from 'kysely';
import { columnTypes } from './column-types.js';

/**
 * Notifications (issue: notifications and search §2, ADR 0017). One row per event and recipient, grouped
 * when read; a per-account state row (read marker, settings, mail bookkeeping); the queue of the daily
 * digest; and the hashes of mail unsubscribe tokens. Every row names its cause by foreign key, so deleting
 * the post, comment or account deletes what it caused.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  const { timestamp, isPostgres } = columnTypes(db);
  const idType = isPostgres ? sql`bigint` : sql`integer`;
  const id = (table: string) =>
    db.schema
      .createTable(table)
      .addColumn('id', idType, (c) =>
        isPostgres ? c.primaryKey().generatedAlwaysAsIdentity() : c.primaryKey().autoIncrement(),
      );

  for (const table of ['notifications', 'notification_mail_queue']) {
    const recipient = table === 'notifications' ? 'recipientId' : 'userId';
    await id(table)
      .addColumn(recipient, 'text', (c) => c.notNull().references('users.id').onDelete('cascade'))
      .addColumn('actorId', 'text', (c) => c.notNull().references('users.id').onDelete('cascade'))
      .addColumn('kind', 'text', (c) => c.notNull())
      .addColumn('postId', idType, (c) => c.references('posts.id').onDelete('cascade'))
      .addColumn('commentId', idType, (c) => c.references('comments.id').onDelete('cascade'))
      .$call((builder) =>
        // Likes of one post, likes of one comment, and all follows: null for kinds never grouped.
        table === 'notifications' ? builder.addColumn('groupKey', 'text') : builder,
      )
      .addColumn('createdAt', timestamp, (c) => c.notNull())
      .execute();
    // Deleting a post, comment or account finds what it caused through these, not by a scan.
    for (const column of ['actorId', 'postId', 'commentId']) {
      await db.schema.createIndex(`${table}_${column}_idx`).on(table).column(column).execute();
    }
  }
  // The list and the unread count: one account's notifications newest first.
  await db.schema
    .createIndex('notifications_recipient_idx')
    .on('notifications')
    .columns(['recipientId', 'id'])
    .execute();
  // Whether a notification is the newest of its group, and a group's people: one range per group.
  await db.schema
    .createIndex('notifications_group_idx')
    .on('notifications')
    .columns(['recipientId', 'groupKey', 'id'])
    .execute();
  // The Mentions tab.
  await db.schema
    .createIndex('notifications_kind_idx')
    .on('notifications')
    .columns(['recipientId', 'kind', 'id'])
    .execute();
  await db.schema
    .createIndex('notification_mail_queue_user_idx')
    .on('notification_mail_queue')
    .columns(['userId', 'id'])
    .execute();

  await db.schema
    .createTable('notification_states')
    .addColumn('userId', 'text', (c) =>
      c.primaryKey().notNull().references('users.id').onDelete('cascade'),
    )
    // Everything up to this notification id is read.
    .addColumn('lastReadId', idType, (c) => c.notNull().defaultTo(0))
    // JSON of notificationSettingsSchema; null: the defaults.
    .addColumn('settings', 'text')
    // The last daily digest claimed for this account: the claim that keeps two instances from both sending.
    .addColumn('digestSentAt', timestamp)
    // Immediate mails sent in the current hour-long window, which began at mailWindowStart.
    .addColumn('mailWindowStart', timestamp)
    .addColumn('mailWindowCount', 'integer', (c) => c.notNull().defaultTo(0))
    .execute();

  await db.schema
    .createTable('unsubscribe_tokens')
    // SHA-256 of the token in the link, base64url: the database never holds a working link.
    .addColumn('tokenHash', 'text', (c) => c.primaryKey().notNull())
    .addColumn('userId', 'text', (c) => c.notNull().references('users.id').onDelete('cascade'))
    // The kind whose mail the link stops; null for the daily digest.
    .addColumn('kind', 'text')
    .addColumn('createdAt', timestamp, (c) => c.notNull())
    .addColumn('usedAt', timestamp)
    .execute();
  await db.schema
    .createIndex('unsubscribe_tokens_user_idx')
    .on('unsubscribe_tokens')
    .column('userId')
    .execute();
  await db.schema
    .createIndex('unsubscribe_tokens_created_idx')
    .on('unsubscribe_tokens')
    .column('createdAt')
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  for (const table of [
    'unsubscribe_tokens',
    'notification_states',
    'notification_mail_queue',
    'notifications',
  ]) {
    await db.schema.dropTable(table).execute();
  }
}
