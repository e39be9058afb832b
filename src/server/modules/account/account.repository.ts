import type { Kysely, Transaction } from 'kysely';
import type { Database } from '../../db/schema.js';
import { toIsoString } from '../../db/values.js';
import { parseRenditions } from '../../media/renditions.js';

/** Who and what a deleted account leaves changed behind it, newest first, each list bounded by the caller. */
export interface DeletionFanOut {
  /** The account's own posts, which go with it. */
  ownPosts: string[];
  /** Other people's posts it liked, commented on or whose comments it liked: their counts or comments change. */
  touchedPosts: string[];
  /** People it followed or who followed it, latest follow first: their counts change. */
  relatedUsers: string[];
  /** People with notifications it caused or about its posts: those go with it, so their bells change. */
  notifiedUsers: string[];
}

/** What a deletion removed: the storage keys of the account's files, and what open pages must hear of. */
export interface DeletedAccount {
  storageKeys: string[];
  fanOut: DeletionFanOut;
}

/** Sessions, pending email changes and account deletion. */
export class AccountRepository {
  constructor(private readonly db: Kysely<Database>) {}

  /** The password hash of the account's email-and-password credential. */
  async passwordHash(uid: string): Promise<string | null> {
    const row = await this.db
      .selectFrom('accounts')
      .select('password')
      .where('userId', '=', uid)
      .where('providerId', '=', 'credential')
      .executeTakeFirst();
    return row?.password ?? null;
  }

  /** The account's unexpired sessions, most recently used first. */
  async activeSessions(uid: string) {
    const rows = await this.db
      .selectFrom('sessions')
      .select(['id', 'ipAddress', 'userAgent', 'createdAt', 'updatedAt'])
      .where('userId', '=', uid)
      .where('expiresAt', '>', new Date().toISOString())
      .orderBy('updatedAt', 'desc')
      .execute();
    return rows.map((row) => ({
      ...row,
      createdAt: toIsoString(row.createdAt),
      updatedAt: toIsoString(row.updatedAt),
    }));
  }

  /** Deletes one of the user's own sessions; false when there is no such session of theirs. */
  async deleteSession(uid: string, sessionId: string): Promise<boolean> {
    const result = await this.db
      .deleteFrom('sessions')
      .where('id', '=', sessionId)
      .where('userId', '=', uid)
      .executeTakeFirst();
    return result.numDeletedRows > 0n;
  }

  /** Which of `sessionIds` still exist and have not expired, in one query. */
  async liveSessionIds(sessionIds: readonly string[]): Promise<Set<string>> {
    if (sessionIds.length === 0) return new Set();
    const rows = await this.db
      .selectFrom('sessions')
      .select('id')
      .where('id', 'in', sessionIds)
      .where('expiresAt', '>', new Date().toISOString())
      .execute();
    return new Set(rows.map((row) => row.id));
  }

  async saveEmailChange(token: string, uid: string, email: string, expiresAt: Date): Promise<void> {
    const now = new Date().toISOString();
    await this.db.transaction().execute(async (trx) => {
      // One pending change per account: a new request replaces the last.
      await trx
        .deleteFrom('verifications')
        .where('identifier', 'like', 'change-email:%')
        .where('value', 'like', `${uid}:%`)
        .execute();
      await trx
        .insertInto('verifications')
        .values({
          id: token.slice(0, 24),
          identifier: `change-email:${token}`,
          value: `${uid}:${email}`,
          expiresAt: expiresAt.toISOString(),
          createdAt: now,
          updatedAt: now,
        })
        .execute();
    });
  }

  /** Takes a pending email change (once): its account and address, or null when unknown or expired. */
  async takeEmailChange(token: string): Promise<{ uid: string; email: string } | null> {
    return this.db.transaction().execute(async (trx) => {
      const row = await trx
        .selectFrom('verifications')
        .select(['id', 'value', 'expiresAt'])
        .where('identifier', '=', `change-email:${token}`)
        .executeTakeFirst();
      if (!row) return null;
      await trx.deleteFrom('verifications').where('id', '=', row.id).execute();
      if (new Date(row.expiresAt).getTime() <= Date.now()) return null;
      const separator = row.value.indexOf(':');
      return { uid: row.value.slice(0, separator), email: row.value.slice(separator + 1) };
    });
  }

  async setEmail(uid: string, email: string): Promise<void> {
    await this.db
      .updateTable('users')
      .set({ email, emailVerified: true, updatedAt: new Date().toISOString() })
      .where('id', '=', uid)
      .execute();
  }

  /**
   * Deletes the account and everything that cascades from it (sessions, credentials, media records, posts,
   * comments, likes, follows), keeping its username reserved and everyone else's counts exact. Returns the
   * storage keys of its files for the caller to remove, and what changed for others, gathered in the same
   * transaction and bounded by `bounds` (limits.ts `deletionFanOut`).
   */
  async deleteAccount(
    uid: string,
    reserveUsernameUntil: Date,
    bounds: { posts: number; users: number },
  ): Promise<DeletedAccount | null> {
    return this.db.transaction().execute(async (trx) => {
      const user = await trx
        .selectFrom('users')
        .select('username')
        .where('id', '=', uid)
        .executeTakeFirst();
      if (!user) return null;
      const fanOut = await gatherFanOut(trx, uid, bounds);
      const now = new Date().toISOString();
      if (user.username) {
        await trx.deleteFrom('released_usernames').where('username', '=', user.username).execute();
        await trx
          .insertInto('released_usernames')
          .values({
            username: user.username,
            userId: null,
            releasedAt: now,
            reservedUntil: reserveUsernameUntil.toISOString(),
          })
          .execute();
      }
      // Names this account released earlier stop redirecting, but stay reserved until they expire.
      await trx
        .updateTable('released_usernames')
        .set({ userId: null })
        .where('userId', '=', uid)
        .execute();
      const media = await trx
        .selectFrom('media')
        .select(['id', 'renditions'])
        .where('ownerId', '=', uid)
        .execute();
      await uncountActivity(trx, uid);
      await trx
        .updateTable('users')
        .set({ avatarMediaId: null, coverMediaId: null })
        .where('id', '=', uid)
        .execute();
      if (media.length > 0) {
        await trx
          .deleteFrom('media')
          .where(
            'id',
            'in',
            media.map((row) => row.id),
          )
          .execute();
      }
      await trx
        .deleteFrom('verifications')
        .where((eb) => eb.or([eb('value', '=', uid), eb('value', 'like', `${uid}:%`)]))
        .execute();
      await trx.deleteFrom('users').where('id', '=', uid).execute();
      return {
        storageKeys: media.flatMap((row) =>
          Object.values(parseRenditions(row.renditions)).map((r) => r.key),
        ),
        fanOut,
      };
    });
  }
}

/**
 * The posts and people whose documents change when the account goes, newest first and at most `bounds` of
 * each: the database sorts and cuts, so an account with 100,000 likes sends back no more than the bound.
 */
async function gatherFanOut(
  trx: Transaction<Database>,
  uid: string,
  bounds: { posts: number; users: number },
): Promise<DeletionFanOut> {
  const own = await trx
    .selectFrom('posts')
    .select('id')
    .where('authorId', '=', uid)
    .orderBy('id', 'desc')
    .limit(bounds.posts)
    .execute();
  const touchedIds = trx
    .selectFrom('post_likes')
    .select('postId')
    .where('userId', '=', uid)
    .union(trx.selectFrom('comments').select('postId').where('authorId', '=', uid))
    .union(
      trx
        .selectFrom('comment_likes')
        .innerJoin('comments', 'comments.id', 'comment_likes.commentId')
        .select('comments.postId')
        .where('comment_likes.userId', '=', uid),
    );
  const touched = await trx
    .selectFrom(touchedIds.as('touched'))
    .innerJoin('posts', 'posts.id', 'touched.postId')
    .select('posts.id')
    .where('posts.authorId', '<>', uid)
    .orderBy('posts.id', 'desc')
    .limit(bounds.posts)
    .execute();
  const related = await trx
    .selectFrom(
      trx
        .selectFrom('follows')
        .select(['id', 'followeeId as uid'])
        .where('followerId', '=', uid)
        .unionAll(
          trx
            .selectFrom('follows')
            .select(['id', 'followerId as uid'])
            .where('followeeId', '=', uid),
        )
        .as('related'),
    )
    .select('related.uid')
    .orderBy('related.id', 'desc')
    .limit(bounds.users)
    .execute();
  const notified = await trx
    .selectFrom('notifications')
    .select('recipientId')
    .distinct()
    .where((eb) =>
      eb.or([
        eb('actorId', '=', uid),
        eb('postId', 'in', eb.selectFrom('posts').select('id').where('authorId', '=', uid)),
      ]),
    )
    .where('recipientId', '<>', uid)
    .limit(bounds.users)
    .execute();
  return {
    ownPosts: own.map((row) => String(row.id)),
    touchedPosts: touched.map((row) => String(row.id)),
    relatedUsers: [...new Set(related.map((row) => row.uid))],
    notifiedUsers: notified.map((row) => row.recipientId),
  };
}

/**
 * Takes the account's activity out of the counters it holds on other rows, before the rows themselves go
 * with the account (foreign keys cascade) and in the same transaction (ADR 0007). Counts are recounted from
 * what stays rather than decremented where a cascade removes rows of others too (replies under its
 * comments), and every query names its rows by subquery, so no id list grows with the account's activity.
 * Posts are locked before comments, in the order every comment write takes them (comments.repository.ts),
 * so a concurrent comment cannot deadlock with a deletion.
 */
async function uncountActivity(trx: Transaction<Database>, uid: string): Promise<void> {
  const ownComments = trx.selectFrom('comments').select('id').where('authorId', '=', uid);
  const commentedPosts = trx.selectFrom('comments').select('postId').where('authorId', '=', uid);
  const likedCommentPosts = trx
    .selectFrom('comment_likes')
    .innerJoin('comments', 'comments.id', 'comment_likes.commentId')
    .select('comments.postId')
    .where('comment_likes.userId', '=', uid);
  // Comment lists refetch when the revision moves: the comments it wrote or liked are about to change.
  await trx
    .updateTable('posts')
    .set((eb) => ({ commentsRevision: eb('commentsRevision', '+', 1) }))
    .where((eb) => eb.or([eb('id', 'in', commentedPosts), eb('id', 'in', likedCommentPosts)]))
    .execute();
  // What stays of a post's comments: neither the account's nor replies under its top-level comments.
  await trx
    .updateTable('posts')
    .set((eb) => ({
      commentCount: eb
        .selectFrom('comments as staying')
        .select((count) => count.fn.countAll<number>().as('count'))
        .whereRef('staying.postId', '=', 'posts.id')
        .where('staying.authorId', '<>', uid)
        .where((inner) =>
          inner.or([
            inner('staying.parentId', 'is', null),
            inner('staying.parentId', 'not in', ownComments),
          ]),
        ),
    }))
    .where('id', 'in', commentedPosts)
    .execute();
  await trx
    .updateTable('posts')
    .set((eb) => ({ likeCount: eb('likeCount', '-', 1) }))
    .where('id', 'in', (eb) =>
      eb.selectFrom('post_likes').select('postId').where('userId', '=', uid),
    )
    .execute();
  await trx
    .updateTable('comments')
    .set((eb) => ({ likeCount: eb('likeCount', '-', 1) }))
    .where('id', 'in', (eb) =>
      eb.selectFrom('comment_likes').select('commentId').where('userId', '=', uid),
    )
    .execute();
  await trx
    .updateTable('comments as thread')
    .set((eb) => ({
      replyCount: eb
        .selectFrom('comments as reply')
        .select((count) => count.fn.countAll<number>().as('count'))
        .whereRef('reply.parentId', '=', 'thread.id')
        .where('reply.authorId', '<>', uid),
    }))
    .where('thread.id', 'in', (eb) =>
      eb
        .selectFrom('comments')
        .select('parentId')
        .where('authorId', '=', uid)
        .where('parentId', 'is not', null),
    )
    .where('thread.authorId', '<>', uid)
    .execute();
  await trx
    .updateTable('users')
    .set((eb) => ({ followingCount: eb('followingCount', '-', 1) }))
    .where('id', 'in', (eb) =>
      eb.selectFrom('follows').select('followerId').where('followeeId', '=', uid),
    )
    .execute();
  await trx
    .updateTable('users')
    .set((eb) => ({ followerCount: eb('followerCount', '-', 1) }))
    .where('id', 'in', (eb) =>
      eb.selectFrom('follows').select('followeeId').where('followerId', '=', uid),
    )
    .execute();
}
