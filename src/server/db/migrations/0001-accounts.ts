import type { Kysely } from 'kysely';
import { columnTypes } from './column-types.js';

/**
 * Better Auth's tables (users, sessions, accounts, verifications) with the username and admin plugins and
 * the user-document fields of spec §3. Their shape must match what Better Auth expects: a test runs its
 * own schema check against a migrated database and must find nothing to do.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  const { timestamp, boolean, now, isPostgres } = columnTypes(db);

  await db.schema
    .createTable('users')
    .addColumn('id', 'text', (c) => c.primaryKey().notNull())
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('email', 'text', (c) => c.notNull().unique())
    .addColumn('emailVerified', boolean, (c) => c.notNull())
    .addColumn('image', 'text')
    .addColumn('createdAt', timestamp, (c) =>
      isPostgres ? c.notNull().defaultTo(now) : c.notNull(),
    )
    .addColumn('updatedAt', timestamp, (c) =>
      isPostgres ? c.notNull().defaultTo(now) : c.notNull(),
    )
    .addColumn('username', 'text', (c) => c.unique())
    .addColumn('displayUsername', 'text')
    .addColumn('role', 'text')
    .addColumn('banned', boolean)
    .addColumn('banReason', 'text')
    .addColumn('banExpires', timestamp)
    .addColumn('firstName', 'text')
    .addColumn('lastName', 'text')
    .addColumn('displayName', 'text')
    .addColumn('cover', 'text')
    .addColumn('bio', 'text')
    .addColumn('active', boolean)
    .execute();

  await db.schema
    .createTable('sessions')
    .addColumn('id', 'text', (c) => c.primaryKey().notNull())
    .addColumn('expiresAt', timestamp, (c) => c.notNull())
    .addColumn('token', 'text', (c) => c.notNull().unique())
    .addColumn('createdAt', timestamp, (c) =>
      isPostgres ? c.notNull().defaultTo(now) : c.notNull(),
    )
    .addColumn('updatedAt', timestamp, (c) => c.notNull())
    .addColumn('ipAddress', 'text')
    .addColumn('userAgent', 'text')
    .addColumn('userId', 'text', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('impersonatedBy', 'text')
    .execute();

  await db.schema
    .createTable('accounts')
    .addColumn('id', 'text', (c) => c.primaryKey().notNull())
    .addColumn('accountId', 'text', (c) => c.notNull())
    .addColumn('providerId', 'text', (c) => c.notNull())
    .addColumn('userId', 'text', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('accessToken', 'text')
    .addColumn('refreshToken', 'text')
    .addColumn('idToken', 'text')
    .addColumn('accessTokenExpiresAt', timestamp)
    .addColumn('refreshTokenExpiresAt', timestamp)
    .addColumn('scope', 'text')
    .addColumn('password', 'text')
    .addColumn('createdAt', timestamp, (c) =>
      isPostgres ? c.notNull().defaultTo(now) : c.notNull(),
    )
    .addColumn('updatedAt', timestamp, (c) => c.notNull())
    .execute();

  await db.schema
    .createTable('verifications')
    .addColumn('id', 'text', (c) => c.primaryKey().notNull())
    .addColumn('identifier', 'text', (c) => c.notNull())
    .addColumn('value', 'text', (c) => c.notNull())
    .addColumn('expiresAt', timestamp, (c) => c.notNull())
    .addColumn('createdAt', timestamp, (c) =>
      isPostgres ? c.notNull().defaultTo(now) : c.notNull(),
    )
    .addColumn('updatedAt', timestamp, (c) =>
      isPostgres ? c.notNull().defaultTo(now) : c.notNull(),
    )
    .execute();

  await db.schema.createIndex('sessions_userId_idx').on('sessions').column('userId').execute();
  await db.schema.createIndex('accounts_userId_idx').on('accounts').column('userId').execute();
  await db.schema
    .createIndex('verifications_identifier_idx')
    .on('verifications')
    .column('identifier')
    .execute();
  // The operator list and admin screens page through users by join date.
  await db.schema
    .createIndex('users_createdAt_idx')
    .on('users')
    .columns(['createdAt', 'id'])
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  for (const table of ['verifications', 'accounts', 'sessions', 'users']) {
    await db.schema.dropTable(table).execute();
  }
}
