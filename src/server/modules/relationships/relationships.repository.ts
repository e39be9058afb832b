import type { Kysely, Transaction } from 'kysely';
import type { Database } from '../../db/schema.js';
import { toIsoString, toIsoStringOrNull } from '../../db/values.js';
import { withdrawNotifications } from '../notifications/notifications.repository.js';
import {
  authorAvatarRenditions,
  authorSelection,
  type AuthorColumns,
} from '../users/authors.repository.js';
import { readUserRecords, type UserRecord } from '../users/users.repository.js';
import { blockedEitherWay } from './hidden.repository.js';

/** A block that changed something: both users as it left them (follow counts), and whose bells changed. */
export interface BlockChange {
  records: UserRecord[];
  withdrawn: string[];
}

/** How one user relates to another by blocks and mutes (expired mutes count as none). */
export interface BlockMuteState {
  blocking: boolean;
  blockedBy: boolean;
  muting: boolean;
  muteExpiresAt: string | null;
}

/** A person in a block or mute list. */
export interface RelationshipRow extends AuthorColumns {
  since: string;
  expiresAt: string | null;
}

export interface RelationshipListBounds {
  /** Only rows older than this (createdAt, uid) pair: lists run newest first. */
  before?: { since: string; uid: string };
  take: number;
}

/** Whom one account hides, as the web app is told, and what its live revision is made of. */
export interface HiddenRows {
  blocking: string[];
  blockedBy: string[];
  muting: { uid: string; expiresAt: string | null }[];
}

const now = () => new Date().toISOString();

/** Blocks and mutes (ADR 0022). Follows end with a block, in the same transaction. */
export class RelationshipsRepository {
  constructor(private readonly db: Kysely<Database>) {}

  async userExists(uid: string): Promise<boolean> {
    const row = await this.db
      .selectFrom('users')
      .select('id')
      .where('id', '=', uid)
      .executeTakeFirst();
    return row !== undefined;
  }

  isBlockedEitherWay(a: string, b: string): Promise<boolean> {
    return blockedEitherWay(this.db, a, b);
  }

  /**
   * Adds the block unless it is there and ends the follows between the two, both ways, with their counts
   * and follow notifications. Null when the block was already there and nothing changed.
   */
  block(blockerId: string, blockedId: string): Promise<BlockChange | null> {
    return this.db.transaction().execute(async (trx) => {
      const result = await trx
        .insertInto('blocks')
        .values({ blockerId, blockedId, createdAt: now() })
        .onConflict((oc) => oc.columns(['blockerId', 'blockedId']).doNothing())
        .executeTakeFirst();
      if (!result.numInsertedOrUpdatedRows) return null;
      const withdrawn = new Set<string>();
      for (const [followerId, followeeId] of [
        [blockerId, blockedId],
        [blockedId, blockerId],
      ] as const) {
        const removed = await trx
          .deleteFrom('follows')
          .where('followerId', '=', followerId)
          .where('followeeId', '=', followeeId)
          .executeTakeFirst();
        if (removed.numDeletedRows === 0n) continue;
        await adjustFollowCounts(trx, followerId, followeeId);
        for (const uid of await withdrawNotifications(trx, {
          kind: 'follow',
          actorId: followerId,
          recipientId: followeeId,
        })) {
          withdrawn.add(uid);
        }
      }
      return {
        records: await readUserRecords(trx, [blockerId, blockedId]),
        withdrawn: [...withdrawn],
      };
    });
  }

  /** Removes the block; false when there was none. */
  async unblock(blockerId: string, blockedId: string): Promise<boolean> {
    const result = await this.db
      .deleteFrom('blocks')
      .where('blockerId', '=', blockerId)
      .where('blockedId', '=', blockedId)
      .executeTakeFirst();
    return result.numDeletedRows > 0n;
  }

  /** Mutes until `expiresAt` (null: until unmuted); muting again sets the new end. */
  async mute(muterId: string, mutedId: string, expiresAt: string | null): Promise<void> {
    await this.db
      .insertInto('mutes')
      .values({ muterId, mutedId, createdAt: now(), expiresAt })
      .onConflict((oc) =>
        oc.columns(['muterId', 'mutedId']).doUpdateSet({ expiresAt, createdAt: now() }),
      )
      .execute();
  }

  /** Removes the mute; false when there was none. */
  async unmute(muterId: string, mutedId: string): Promise<boolean> {
    const result = await this.db
      .deleteFrom('mutes')
      .where('muterId', '=', muterId)
      .where('mutedId', '=', mutedId)
      .executeTakeFirst();
    return result.numDeletedRows > 0n;
  }

  /** Whether each follows the other, in one query. */
  async follows(
    viewerId: string,
    uid: string,
  ): Promise<{ following: boolean; followedBy: boolean }> {
    const rows = await this.db
      .selectFrom('follows')
      .select('followerId')
      .where((eb) =>
        eb.or([
          eb.and([eb('followerId', '=', viewerId), eb('followeeId', '=', uid)]),
          eb.and([eb('followerId', '=', uid), eb('followeeId', '=', viewerId)]),
        ]),
      )
      .execute();
    return {
      following: rows.some((row) => row.followerId === viewerId),
      followedBy: rows.some((row) => row.followerId === uid),
    };
  }

  /** How `viewerId` and `uid` stand by blocks and mutes, in two queries. */
  async state(viewerId: string, uid: string): Promise<BlockMuteState> {
    const [blocks, mute] = await Promise.all([
      this.db
        .selectFrom('blocks')
        .select('blockerId')
        .where((eb) =>
          eb.or([
            eb.and([eb('blockerId', '=', viewerId), eb('blockedId', '=', uid)]),
            eb.and([eb('blockerId', '=', uid), eb('blockedId', '=', viewerId)]),
          ]),
        )
        .execute(),
      this.db
        .selectFrom('mutes')
        .select('expiresAt')
        .where('muterId', '=', viewerId)
        .where('mutedId', '=', uid)
        .where((eb) => eb.or([eb('expiresAt', 'is', null), eb('expiresAt', '>', now())]))
        .executeTakeFirst(),
    ]);
    return {
      blocking: blocks.some((row) => row.blockerId === viewerId),
      blockedBy: blocks.some((row) => row.blockerId === uid),
      muting: mute !== undefined,
      muteExpiresAt: mute ? toIsoStringOrNull(mute.expiresAt) : null,
    };
  }

  /** The people `uid` blocks, newest first. */
  async blocks(uid: string, bounds: RelationshipListBounds): Promise<RelationshipRow[]> {
    let query = this.db
      .selectFrom('blocks')
      .innerJoin('users as author', 'author.id', 'blocks.blockedId')
      .select(['blocks.createdAt as since', ...authorSelection])
      .select((eb) => authorAvatarRenditions(eb))
      .where('blocks.blockerId', '=', uid);
    const before = bounds.before;
    if (before) {
      query = query.where((eb) =>
        eb.or([
          eb('blocks.createdAt', '<', before.since),
          eb.and([
            eb('blocks.createdAt', '=', before.since),
            eb('blocks.blockedId', '<', before.uid),
          ]),
        ]),
      );
    }
    const rows = await query
      .orderBy('blocks.createdAt', 'desc')
      .orderBy('blocks.blockedId', 'desc')
      .limit(bounds.take)
      .execute();
    return rows.map((row) => ({ ...row, since: toIsoString(row.since), expiresAt: null }));
  }

  /** The people `uid` mutes (mutes that have run out left aside), newest first. */
  async mutes(uid: string, bounds: RelationshipListBounds): Promise<RelationshipRow[]> {
    let query = this.db
      .selectFrom('mutes')
      .innerJoin('users as author', 'author.id', 'mutes.mutedId')
      .select(['mutes.createdAt as since', 'mutes.expiresAt', ...authorSelection])
      .select((eb) => authorAvatarRenditions(eb))
      .where('mutes.muterId', '=', uid)
      .where((eb) => eb.or([eb('mutes.expiresAt', 'is', null), eb('mutes.expiresAt', '>', now())]));
    const before = bounds.before;
    if (before) {
      query = query.where((eb) =>
        eb.or([
          eb('mutes.createdAt', '<', before.since),
          eb.and([eb('mutes.createdAt', '=', before.since), eb('mutes.mutedId', '<', before.uid)]),
        ]),
      );
    }
    const rows = await query
      .orderBy('mutes.createdAt', 'desc')
      .orderBy('mutes.mutedId', 'desc')
      .limit(bounds.take)
      .execute();
    return rows.map((row) => ({
      ...row,
      since: toIsoString(row.since),
      expiresAt: toIsoStringOrNull(row.expiresAt),
    }));
  }

  /** Whom `uid` blocks, is blocked by and mutes (live mutes only), at most `max` of each. */
  async hidden(uid: string, max: number): Promise<HiddenRows> {
    const [blocking, blockedBy, muting] = await Promise.all([
      this.db
        .selectFrom('blocks')
        .select('blockedId')
        .where('blockerId', '=', uid)
        .orderBy('blockedId')
        .limit(max)
        .execute(),
      this.db
        .selectFrom('blocks')
        .select('blockerId')
        .where('blockedId', '=', uid)
        .orderBy('blockerId')
        .limit(max)
        .execute(),
      this.db
        .selectFrom('mutes')
        .select(['mutedId', 'expiresAt'])
        .where('muterId', '=', uid)
        .where((eb) => eb.or([eb('expiresAt', 'is', null), eb('expiresAt', '>', now())]))
        .orderBy('mutedId')
        .limit(max)
        .execute(),
    ]);
    return {
      blocking: blocking.map((row) => row.blockedId),
      blockedBy: blockedBy.map((row) => row.blockerId),
      muting: muting.map((row) => ({
        uid: row.mutedId,
        expiresAt: toIsoStringOrNull(row.expiresAt),
      })),
    };
  }

  /** Deletes mutes that have run out (at most `max`); returns whose mutes they were. */
  async sweepExpiredMutes(max: number): Promise<string[]> {
    const expired = await this.db
      .selectFrom('mutes')
      .select(['muterId', 'mutedId'])
      .where('expiresAt', '<=', now())
      .limit(max)
      .execute();
    if (expired.length === 0) return [];
    await this.db
      .deleteFrom('mutes')
      .where((eb) =>
        eb.or(
          expired.map((row) =>
            eb.and([eb('muterId', '=', row.muterId), eb('mutedId', '=', row.mutedId)]),
          ),
        ),
      )
      .where('expiresAt', '<=', now())
      .execute();
    return [...new Set(expired.map((row) => row.muterId))];
  }
}

/**
 * Takes one follow off both counters. The two rows are updated in a fixed order (by id), as follows do, so
 * concurrent changes cannot deadlock on PostgreSQL.
 */
async function adjustFollowCounts(
  trx: Transaction<Database>,
  followerId: string,
  followeeId: string,
): Promise<void> {
  const updates = [
    { uid: followerId, column: 'followingCount' as const },
    { uid: followeeId, column: 'followerCount' as const },
  ].sort((a, b) => (a.uid < b.uid ? -1 : 1));
  for (const { uid, column } of updates) {
    await trx
      .updateTable('users')
      .set((eb) => ({ [column]: eb(column, '-', 1) }))
      .where('id', '=', uid)
      .execute();
  }
}
