import type { Kysely } from 'kysely';
import type { Database } from '../db/schema.js';

/** An upload recorded before its files were written, and whether a media row now references them. */
export interface PendingUpload {
  mediaId: string;
  keys: string[];
  committed: boolean;
}

const parseKeys = (json: string): string[] => {
  const value: unknown = JSON.parse(json);
  return Array.isArray(value) ? value.filter((key): key is string => typeof key === 'string') : [];
};

/** The ledger of uploads in flight (ADR 0009): the only place that reads and writes pending_uploads. */
export class PendingUploadsRepository {
  constructor(private readonly db: Kysely<Database>) {}

  /** Records that the files of `mediaId` are about to be written; committed before the first one is. */
  async record(mediaId: string, keys: string[]): Promise<void> {
    await this.db
      .insertInto('pending_uploads')
      .values({ mediaId, keys: JSON.stringify(keys), createdAt: new Date().toISOString() })
      .execute();
  }

  /** Forgets uploads that committed, or whose files were deleted. */
  async forget(mediaIds: string[]): Promise<void> {
    if (mediaIds.length === 0) return;
    await this.db.deleteFrom('pending_uploads').where('mediaId', 'in', mediaIds).execute();
  }

  /** Up to `limit` uploads recorded before `before`, oldest first. */
  async recordedBefore(before: Date, limit: number): Promise<PendingUpload[]> {
    const rows = await this.db
      .selectFrom('pending_uploads')
      .leftJoin('media', 'media.id', 'pending_uploads.mediaId')
      .select(['pending_uploads.mediaId', 'pending_uploads.keys', 'media.id as mediaRowId'])
      .where('pending_uploads.createdAt', '<', before.toISOString())
      .orderBy('pending_uploads.createdAt')
      .limit(limit)
      .execute();
    return rows.map((row) => ({
      mediaId: row.mediaId,
      keys: parseKeys(row.keys),
      committed: row.mediaRowId !== null,
    }));
  }
}
