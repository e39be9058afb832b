import type { Kysely } from 'kysely';
import { columnTypes } from './column-types.js';

/**
 * Profiles (issue: profiles): website and image alt texts, media records for stored renditions, the date
 * of the last username change, and released usernames (old names redirect and stay reserved for a while;
 * so do the names of deleted accounts).
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  const { timestamp } = columnTypes(db);

  await db.schema
    .createTable('media')
    .addColumn('id', 'text', (c) => c.primaryKey().notNull())
    .addColumn('ownerId', 'text', (c) => c.references('users.id').onDelete('set null'))
    .addColumn('purpose', 'text', (c) => c.notNull())
    .addColumn('alt', 'text')
    .addColumn('width', 'integer', (c) => c.notNull())
    .addColumn('height', 'integer', (c) => c.notNull())
    // JSON: { [rendition]: { key, width, height } }
    .addColumn('renditions', 'text', (c) => c.notNull())
    .addColumn('createdAt', timestamp, (c) => c.notNull())
    .execute();
  await db.schema.createIndex('media_ownerId_idx').on('media').column('ownerId').execute();

  await db.schema.alterTable('users').addColumn('website', 'text').execute();
  await db.schema
    .alterTable('users')
    .addColumn('avatarMediaId', 'text', (c) => c.references('media.id').onDelete('set null'))
    .execute();
  await db.schema
    .alterTable('users')
    .addColumn('coverMediaId', 'text', (c) => c.references('media.id').onDelete('set null'))
    .execute();
  await db.schema.alterTable('users').addColumn('usernameChangedAt', timestamp).execute();

  await db.schema
    .createTable('released_usernames')
    .addColumn('username', 'text', (c) => c.primaryKey().notNull())
    // The account it now redirects to; null when the account was deleted.
    .addColumn('userId', 'text', (c) => c.references('users.id').onDelete('set null'))
    .addColumn('releasedAt', timestamp, (c) => c.notNull())
    .addColumn('reservedUntil', timestamp, (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex('released_usernames_userId_idx')
    .on('released_usernames')
    .column('userId')
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('released_usernames').execute();
  for (const column of ['usernameChangedAt', 'coverMediaId', 'avatarMediaId', 'website']) {
    await db.schema.alterTable('users').dropColumn(column).execute();
  }
  await db.schema.dropTable('media').execute();
}
