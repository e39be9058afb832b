import type { Kysely, Transaction } from 'kysely';
import type { Database } from '../../db/schema.js';
import { parseRenditions } from '../../media/renditions.js';
import type { NewMedia } from '../../media/stored-image.js';

/** What happens to one profile image in an update. */
export type ImageChange =
  { kind: 'replace'; media: NewMedia } | { kind: 'remove' } | { kind: 'alt'; alt: string | null };

export interface ProfileChange {
  fields: Partial<{
    firstName: string | null;
    lastName: string | null;
    displayName: string | null;
    bio: string | null;
    website: string | null;
    name: string;
  }>;
  username?: { next: string; previous: string | null; reservedUntil: string };
  avatar?: ImageChange;
  cover?: ImageChange;
}

/** Profile writes, each update in one transaction: it all lands, or nothing does. */
export class ProfilesRepository {
  constructor(private readonly db: Kysely<Database>) {}

  /** Applies the change atomically and returns the storage keys of the images it replaced or removed. */
  async apply(uid: string, change: ProfileChange): Promise<string[]> {
    return this.db.transaction().execute(async (trx) => {
      const current = await trx
        .selectFrom('users')
        .select(['avatarMediaId', 'coverMediaId'])
        .where('id', '=', uid)
        .executeTakeFirstOrThrow();
      const now = new Date().toISOString();
      const set: Record<string, unknown> = { ...change.fields, updatedAt: now };
      const orphaned: string[] = [];

      if (change.username) {
        const { next, previous, reservedUntil } = change.username;
        set.username = next;
        set.displayUsername = next;
        set.usernameChangedAt = now;
        // Taking back one's own old name ends its reservation.
        await trx.deleteFrom('released_usernames').where('username', '=', next).execute();
        if (previous) {
          await trx.deleteFrom('released_usernames').where('username', '=', previous).execute();
          await trx
            .insertInto('released_usernames')
            .values({ username: previous, userId: uid, releasedAt: now, reservedUntil })
            .execute();
        }
      }

      for (const [slot, column] of [
        ['avatar', 'avatarMediaId'],
        ['cover', 'coverMediaId'],
      ] as const) {
        const image = change[slot];
        if (!image) continue;
        const existing = current[column];
        switch (image.kind) {
          case 'alt':
            if (existing) {
              await trx
                .updateTable('media')
                .set({ alt: image.alt })
                .where('id', '=', existing)
                .execute();
            }
            break;
          case 'replace':
            await trx
              .insertInto('media')
              .values({
                id: image.media.id,
                ownerId: uid,
                purpose: image.media.purpose,
                alt: image.media.alt,
                width: image.media.width,
                height: image.media.height,
                renditions: JSON.stringify(image.media.renditions),
                createdAt: now,
              })
              .execute();
            set[column] = image.media.id;
            if (existing) orphaned.push(existing);
            break;
          case 'remove':
            set[column] = null;
            if (existing) orphaned.push(existing);
            break;
        }
      }

      await trx.updateTable('users').set(set).where('id', '=', uid).execute();
      return this.deleteMedia(trx, orphaned);
    });
  }

  /** Deletes media rows and returns their storage keys, for the caller to remove once committed. */
  private async deleteMedia(trx: Transaction<Database>, ids: string[]): Promise<string[]> {
    if (ids.length === 0) return [];
    const rows = await trx
      .selectFrom('media')
      .select('renditions')
      .where('id', 'in', ids)
      .execute();
    await trx.deleteFrom('media').where('id', 'in', ids).execute();
    return rows.flatMap((row) => Object.values(parseRenditions(row.renditions)).map((r) => r.key));
  }
}
