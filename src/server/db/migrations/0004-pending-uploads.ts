import type { Kysely } from 'kysely';
import { columnTypes } from './column-types.js';

/**
 * Uploads in flight (ADR 0009): a row is written before an upload's first file and removed once the
 * media row that references those files commits. A row that outlives the grace period without a media
 * row is an upload whose request failed or died, and a sweep deletes its files.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  const { timestamp } = columnTypes(db);
  await db.schema
    .createTable('pending_uploads')
    .addColumn('mediaId', 'text', (c) => c.primaryKey().notNull())
    // JSON: the storage keys the upload writes.
    .addColumn('keys', 'text', (c) => c.notNull())
    .addColumn('createdAt', timestamp, (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex('pending_uploads_createdAt_idx')
    .on('pending_uploads')
    .column('createdAt')
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('pending_uploads').execute();
}
