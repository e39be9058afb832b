import type { Kysely, Transaction } from 'kysely';
import type { Database } from '../../db/schema.js';
import { toId } from '../../db/values.js';
import {
  authorAvatarRenditions,
  authorSelection,
  type AuthorColumns,
} from '../users/authors.repository.js';
import { readUserRecords, type UserRecord } from '../users/users.repository.js';
import { notBlockedEitherWay } from '../relationships/hidden.repository.js';
import {
  NotificationRecorder,
  withdrawNotifications,
  type Notified,
} from '../notifications/notifications.repository.js';

/** A follow or unfollow that changed something: both users as it left them, and its notification. */
export interface FollowChange {
  records: UserRecord[];
  notified: Notified;
}

/** A person in a follower or following list, with the follow's id (the list's cursor). */
export interface FollowRow extends AuthorColumns {
  followId: string;
}

export interface FollowListPage {
  /** Only follows older than this id (lists run newest first). */
  before?: string;
  /** How many rows to read: one more than the page, to learn whether another page follows. */
  take: number;
  /** The signed-in reader: people they block or who block them are left out (ADR 0022). */
  viewerId?: string;
}

/** Follows and the follower/following counters on users, which change in the same transaction. */
export class FollowsRepository {
  private readonly notifications: NotificationRecorder;

  constructor(private readonly db: Kysely<Database>) {
    this.notifications = new NotificationRecorder(db);
  }

  async userExists(uid: string): Promise<boolean> {
    const row = await this.db
      .selectFrom('users')
      .select('id')
      .where('id', '=', uid)
      .executeTakeFirst();
    return row !== undefined;
  }

  /**
   * Adds the follow unless it is there, and notifies the person followed. Returns both users as the follow
   * left them (their new counts), or null when it was already there and nothing changed.
   */
  follow(followerId: string, followeeId: string): Promise<FollowChange | null> {
    return this.db.transaction().execute(async (trx) => {
      const result = await trx
        .insertInto('follows')
        .values({ followerId, followeeId, createdAt: new Date().toISOString() })
        .onConflict((oc) => oc.columns(['followerId', 'followeeId']).doNothing())
        .executeTakeFirst();
      if (!result.numInsertedOrUpdatedRows) return null;
      await this.adjustCounts(trx, followerId, followeeId, 1);
      const deliveries = await this.notifications.record(
        trx,
        { actorId: followerId, postId: null, commentId: null },
        [{ kind: 'follow', recipientId: followeeId }],
      );
      return {
        records: await readUserRecords(trx, [followerId, followeeId]),
        notified: { deliveries, withdrawn: [] },
      };
    });
  }

  /**
   * Removes the follow if it is there, and its notification. Returns both users as the change left them,
   * or null when there was no follow and nothing changed.
   */
  unfollow(followerId: string, followeeId: string): Promise<FollowChange | null> {
    return this.db.transaction().execute(async (trx) => {
      const result = await trx
        .deleteFrom('follows')
        .where('followerId', '=', followerId)
        .where('followeeId', '=', followeeId)
        .executeTakeFirst();
      if (result.numDeletedRows === 0n) return null;
      await this.adjustCounts(trx, followerId, followeeId, -1);
      const withdrawn = await withdrawNotifications(trx, {
        kind: 'follow',
        actorId: followerId,
        recipientId: followeeId,
      });
      return {
        records: await readUserRecords(trx, [followerId, followeeId]),
        notified: { deliveries: [], withdrawn },
      };
    });
  }

  async followerCount(uid: string): Promise<number> {
    const row = await this.db
      .selectFrom('users')
      .select('followerCount')
      .where('id', '=', uid)
      .executeTakeFirst();
    return row?.followerCount ?? 0;
  }

  /** Whether `viewerId` follows `uid` and `uid` follows `viewerId`, in one query. */
  async relationship(
    viewerId: string,
    uid: string,
  ): Promise<{ following: boolean; followedBy: boolean }> {
    const rows = await this.db
      .selectFrom('follows')
      .select(['followerId'])
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

  /** How the viewer relates to each of `uids`, in one query. */
  async relationships(
    viewerId: string,
    uids: string[],
  ): Promise<Map<string, { following: boolean; followedBy: boolean }>> {
    const result = new Map(uids.map((uid) => [uid, { following: false, followedBy: false }]));
    if (uids.length === 0) return result;
    const rows = await this.db
      .selectFrom('follows')
      .select(['followerId', 'followeeId'])
      .where((eb) =>
        eb.or([
          eb.and([eb('followerId', '=', viewerId), eb('followeeId', 'in', uids)]),
          eb.and([eb('followerId', 'in', uids), eb('followeeId', '=', viewerId)]),
        ]),
      )
      .execute();
    for (const row of rows) {
      if (row.followerId === viewerId) {
        const entry = result.get(row.followeeId);
        if (entry) entry.following = true;
      } else {
        const entry = result.get(row.followerId);
        if (entry) entry.followedBy = true;
      }
    }
    return result;
  }

  /** People who follow `uid`, newest follow first: a range scan of `follows_followers_idx`. */
  async followers(uid: string, page: FollowListPage): Promise<FollowRow[]> {
    let query = this.db
      .selectFrom('follows')
      .innerJoin('users as author', 'author.id', 'follows.followerId')
      .select(['follows.id as followId', ...authorSelection])
      .select((eb) => authorAvatarRenditions(eb))
      .where('follows.followeeId', '=', uid);
    if (page.before) query = query.where('follows.id', '<', page.before);
    if (page.viewerId) query = query.where(notBlockedEitherWay(page.viewerId, 'author.id'));
    const rows = await query.orderBy('follows.id', 'desc').limit(page.take).execute();
    return rows.map((row) => ({ ...row, followId: toId(row.followId) }));
  }

  /** People `uid` follows, newest follow first: a range scan of `follows_following_idx`. */
  async following(uid: string, page: FollowListPage): Promise<FollowRow[]> {
    let query = this.db
      .selectFrom('follows')
      .innerJoin('users as author', 'author.id', 'follows.followeeId')
      .select(['follows.id as followId', ...authorSelection])
      .select((eb) => authorAvatarRenditions(eb))
      .where('follows.followerId', '=', uid);
    if (page.before) query = query.where('follows.id', '<', page.before);
    if (page.viewerId) query = query.where(notBlockedEitherWay(page.viewerId, 'author.id'));
    const rows = await query.orderBy('follows.id', 'desc').limit(page.take).execute();
    return rows.map((row) => ({ ...row, followId: toId(row.followId) }));
  }

  /**
   * Moves both counters by `delta`. The two rows are updated in one fixed order (by id), so two people
   * following each other at the same moment cannot deadlock on PostgreSQL.
   */
  private async adjustCounts(
    trx: Transaction<Database>,
    followerId: string,
    followeeId: string,
    delta: number,
  ): Promise<void> {
    const updates = [
      { uid: followerId, column: 'followingCount' as const },
      { uid: followeeId, column: 'followerCount' as const },
    ].sort((a, b) => (a.uid < b.uid ? -1 : 1));
    for (const { uid, column } of updates) {
      await trx
        .updateTable('users')
        .set((eb) => ({ [column]: eb(column, '+', delta) }))
        .where('id', '=', uid)
        .execute();
    }
  }
}
