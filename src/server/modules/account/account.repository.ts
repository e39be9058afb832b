import type { Kysely, Transaction } from 'kysely';
import type { Database } from '../../db/schema.js';
import { parseRenditions } from '../../media/renditions.js';

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

  activeSessions(uid: string) {
    return this.db
      .selectFrom('sessions')
      .select(['id', 'ipAddress', 'userAgent', 'createdAt', 'updatedAt'])
      .where('userId', '=', uid)
      .where('expiresAt', '>', new Date().toISOString())
      .orderBy('updatedAt', 'desc')
      .execute();
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
   * Deletes the account and everything that cascades from it (sessions, credentials, media records),
   * keeping its username reserved; returns the storage keys of its files for the caller to remove.
   */
  async deleteAccount(uid: string, reserveUsernameUntil: Date): Promise<string[]> {
    return this.db.transaction().execute(async (trx) => {
      const user = await trx
        .selectFrom('users')
        .select('username')
        .where('id', '=', uid)
        .executeTakeFirst();
      if (!user) return [];
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
      const touched = await commentedOn(trx, uid);
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
      await uncountActivity(trx, uid);
      await trx.deleteFrom('users').where('id', '=', uid).execute();
      await recountComments(trx, touched);
      return media.flatMap((row) =>
        Object.values(parseRenditions(row.renditions)).map((r) => r.key),
      );
    });
  }
}

/** Posts and threads where the user commented: their counts are recounted once the comments are gone. */
async function commentedOn(trx: Transaction<Database>, uid: string) {
  const rows = await trx
    .selectFrom('comments')
    .select(['postId', 'parentId'])
    .where('authorId', '=', uid)
    .execute();
  return {
    posts: [...new Set(rows.map((row) => row.postId))],
    threads: [...new Set(rows.flatMap((row) => (row.parentId === null ? [] : [row.parentId])))],
  };
}

/**
 * The counters the user's follows and likes hold on other rows. The rows themselves go with the user (foreign
 * keys cascade); their counts must go too, in the same transaction (ADR 0007).
 */
async function uncountActivity(trx: Transaction<Database>, uid: string): Promise<void> {
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
}

/** Recounts comments (a deleted top-level comment takes its replies with it) where the user commented. */
async function recountComments(
  trx: Transaction<Database>,
  touched: { posts: (number | string)[]; threads: (number | string)[] },
): Promise<void> {
  if (touched.posts.length > 0) {
    await trx
      .updateTable('posts')
      .set((eb) => ({
        commentCount: eb
          .selectFrom('comments')
          .select((count) => count.fn.countAll<number>().as('count'))
          .whereRef('comments.postId', '=', 'posts.id'),
        commentsRevision: eb('commentsRevision', '+', 1),
      }))
      .where('id', 'in', touched.posts)
      .execute();
  }
  if (touched.threads.length > 0) {
    await trx
      .updateTable('comments as thread')
      .set((eb) => ({
        replyCount: eb
          .selectFrom('comments as reply')
          .select((count) => count.fn.countAll<number>().as('count'))
          .whereRef('reply.parentId', '=', 'thread.id'),
      }))
      .where('thread.id', 'in', touched.threads)
      .execute();
  }
}
