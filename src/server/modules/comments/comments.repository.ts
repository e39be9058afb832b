import type { ExpressionBuilder, Kysely, Transaction } from 'kysely';
import type { Database } from '../../db/schema.js';
import { toCount, toId, toIdOrNull, toIsoString, toIsoStringOrNull } from '../../db/values.js';
import {
  authorAvatarRenditions,
  authorSelection,
  type AuthorColumns,
} from '../users/authors.repository.js';
import { readPostState, type NotifyingPostState } from '../posts/posts.repository.js';
import { visibleAuthor } from '../relationships/hidden.repository.js';
import {
  recipientsAbout,
  NotificationRecorder,
  withdrawNotifications,
  type NotificationTarget,
  type Notified,
} from '../notifications/notifications.repository.js';

/** An integer id as either dialect returns it: a number from SQLite, a decimal string from PostgreSQL. */
type RowId = number | string;

/** A comment with its author's columns, as every list and single read selects it. */
export interface CommentRow extends AuthorColumns {
  id: string;
  postId: string;
  parentId: string | null;
  body: string;
  createdAt: string;
  editedAt: string | null;
  likeCount: number;
  replyCount: number;
  /** Removed by moderators (ADR 0021): only its author reads it. */
  removedAt: string | null;
  removalReason: string | null;
}

/** A comment as either dialect reads it, before its ids and timestamps take one shape (db/values.ts). */
type StoredComment = Omit<
  CommentRow,
  'id' | 'postId' | 'parentId' | 'createdAt' | 'editedAt' | 'removedAt'
> & {
  id: RowId;
  postId: RowId;
  parentId: RowId | null;
  createdAt: Date | string;
  editedAt: Date | string | null;
  removedAt: Date | string | null;
};

const toCommentRow = (row: StoredComment): CommentRow => ({
  ...row,
  id: toId(row.id),
  postId: toId(row.postId),
  parentId: toIdOrNull(row.parentId),
  createdAt: toIsoString(row.createdAt),
  editedAt: toIsoStringOrNull(row.editedAt),
  removedAt: toIsoStringOrNull(row.removedAt),
});

/** What authorisation needs to know about a comment. */
export interface CommentRef {
  id: string;
  postId: string;
  parentId: string | null;
  authorId: string;
  postAuthorId: string;
  /** Its text, which an edit compares with the new one to find the people it newly mentions. */
  body: string;
  /** Removed by moderators (ADR 0021). */
  removed: boolean;
}

export interface NewComment {
  postId: string;
  /** The top-level comment replied to, already resolved (replies are one level deep). */
  parentId: string | null;
  authorId: string;
  body: string;
  /** Whom it concerns first (the replied-to author, the post's author), before the people it mentions. */
  targets: NotificationTarget[];
  /** Lowercased usernames the text mentions. */
  mentions: string[];
}

export interface KeysetPage {
  /** Only ids greater than this (lists of comments run oldest first). */
  after?: string;
  /** How many rows to read: one more than the page, to learn whether another page follows. */
  take: number;
  /** The signed-in reader: comments of people hidden from them are left out (ADR 0022). */
  viewerId?: string;
}

/** Rolls back a transaction that turned out to change nothing (a second like), so no revision is bumped. */
class NothingChanged extends Error {}

/**
 * Comments and their likes. Every write begins by bumping its post's `commentsRevision`, which locks the post
 * row: writers of one post's comments take their locks in one order (post, then comments), so they never
 * deadlock each other or a deletion of the post, and the counters they adjust stay exact.
 */
/** Removed by moderators: a comment is gone for everyone but its author (ADR 0021). */
function notRemovedFor(viewerId: string | undefined) {
  return (eb: ExpressionBuilder<Database, 'comments'>) =>
    viewerId === undefined
      ? eb('comments.removedAt', 'is', null)
      : eb.or([eb('comments.removedAt', 'is', null), eb('comments.authorId', '=', viewerId)]);
}

export class CommentsRepository {
  private readonly notifications: NotificationRecorder;

  constructor(private readonly db: Kysely<Database>) {
    this.notifications = new NotificationRecorder(db);
  }

  /** The author of a post, or undefined when there is no such post (or it was deleted). */
  async findPostAuthor(
    postId: string,
  ): Promise<{ authorId: string; removed: boolean } | undefined> {
    const row = await this.db
      .selectFrom('posts')
      .select(['authorId', 'removedAt'])
      .where('id', '=', postId)
      .executeTakeFirst();
    return row && { authorId: row.authorId, removed: row.removedAt !== null };
  }

  async findRef(commentId: string): Promise<CommentRef | undefined> {
    const row = await this.db
      .selectFrom('comments')
      .innerJoin('posts', 'posts.id', 'comments.postId')
      .select([
        'comments.id',
        'comments.postId',
        'comments.parentId',
        'comments.authorId',
        'posts.authorId as postAuthorId',
        'comments.body',
        'comments.removedAt',
      ])
      .where('comments.id', '=', commentId)
      .executeTakeFirst();
    return (
      row && {
        ...row,
        removed: row.removedAt !== null,
        id: toId(row.id),
        postId: toId(row.postId),
        parentId: toIdOrNull(row.parentId),
      }
    );
  }

  async findById(commentId: string): Promise<CommentRow | undefined> {
    const row = await this.rows().where('comments.id', '=', commentId).executeTakeFirst();
    return row && toCommentRow(row);
  }

  /** Top-level comments of a post, oldest first: a range scan of `comments_post_idx`. */
  async topLevel(postId: string, page: KeysetPage): Promise<CommentRow[]> {
    let query = this.rows()
      .where('comments.postId', '=', postId)
      .where('comments.parentId', 'is', null);
    if (page.after) query = query.where('comments.id', '>', page.after);
    if (page.viewerId) query = query.where(visibleAuthor(page.viewerId, 'comments.authorId'));
    query = query.where(notRemovedFor(page.viewerId));
    const rows = await query.orderBy('comments.id', 'asc').limit(page.take).execute();
    return rows.map(toCommentRow);
  }

  /** Replies to a comment, oldest first: a range scan of `comments_parent_idx`. */
  async replies(parentId: string, page: KeysetPage): Promise<CommentRow[]> {
    let query = this.rows().where('comments.parentId', '=', parentId);
    if (page.after) query = query.where('comments.id', '>', page.after);
    if (page.viewerId) query = query.where(visibleAuthor(page.viewerId, 'comments.authorId'));
    query = query.where(notRemovedFor(page.viewerId));
    const rows = await query.orderBy('comments.id', 'asc').limit(page.take).execute();
    return rows.map(toCommentRow);
  }

  /**
   * The first `count` replies of each of `parentIds`, in one query. Each parent is its own index range scan
   * with a limit, so a long thread costs no more than a short one.
   */
  async firstReplies(
    parentIds: readonly string[],
    count: number,
    viewerId?: string,
  ): Promise<CommentRow[]> {
    const [first, ...rest] = parentIds.map((parentId) =>
      this.db
        .selectFrom((eb) =>
          eb
            .selectFrom('comments')
            .select('comments.id')
            .where('comments.parentId', '=', parentId)
            .$if(viewerId !== undefined, (query) =>
              query.where(visibleAuthor(viewerId ?? '', 'comments.authorId')),
            )
            .where(notRemovedFor(viewerId))
            .orderBy('comments.id', 'asc')
            .limit(count)
            .as('preview'),
        )
        .select('preview.id'),
    );
    if (!first) return [];
    const ids = rest.reduce((union, branch) => union.unionAll(branch), first);
    const rows = await this.rows()
      .where('comments.id', 'in', ids)
      .orderBy('comments.id', 'asc')
      .execute();
    return rows.map(toCommentRow);
  }

  /** Which of `commentIds` the user likes: one query for a whole page. */
  async likedBy(userId: string, commentIds: readonly string[]): Promise<Set<string>> {
    if (commentIds.length === 0) return new Set();
    const rows = await this.db
      .selectFrom('comment_likes')
      .select('commentId')
      .where('userId', '=', userId)
      .where('commentId', 'in', commentIds)
      .execute();
    return new Set(rows.map((row) => toId(row.commentId)));
  }

  /**
   * Writes a comment, its counters and its notifications: the new comment's id and the post's state after
   * it, or undefined when the post is gone.
   */
  create(comment: NewComment): Promise<{ id: string; post: NotifyingPostState } | undefined> {
    return this.changing(async (trx) => {
      const now = new Date().toISOString();
      await this.bumpPost(trx, comment.postId, 1);
      // Foreign keys refuse the row when the post or the parent is gone; the caller reports that as a 404.
      const inserted = await trx
        .insertInto('comments')
        .values({
          postId: comment.postId,
          parentId: comment.parentId,
          authorId: comment.authorId,
          body: comment.body,
          createdAt: now,
        })
        .returning('id')
        .executeTakeFirstOrThrow();
      if (comment.parentId) {
        await trx
          .updateTable('comments')
          .set((eb) => ({ replyCount: eb('replyCount', '+', 1) }))
          .where('id', '=', comment.parentId)
          .execute();
      }
      const id = toId(inserted.id);
      const deliveries = await this.notifications.record(
        trx,
        { actorId: comment.authorId, postId: comment.postId, commentId: id },
        comment.targets,
        comment.mentions,
      );
      return { id, post: await this.postAfter(trx, comment.postId, { deliveries, withdrawn: [] }) };
    });
  }

  /**
   * Changes a comment's text and notifies the people it newly `mentions`; the post's state after it, or
   * undefined when the comment no longer exists.
   */
  updateBody(
    ref: CommentRef,
    body: string,
    mentions: readonly string[],
  ): Promise<NotifyingPostState | undefined> {
    return this.changing(async (trx) => {
      await this.bumpPost(trx, ref.postId, 0);
      const result = await trx
        .updateTable('comments')
        .set({ body, editedAt: new Date().toISOString() })
        .where('id', '=', ref.id)
        .executeTakeFirst();
      if (result.numUpdatedRows === 0n) throw new NothingChanged();
      const deliveries = await this.notifications.record(
        trx,
        { actorId: ref.authorId, postId: ref.postId, commentId: ref.id },
        [],
        mentions,
      );
      return this.postAfter(trx, ref.postId, { deliveries, withdrawn: [] });
    });
  }

  /**
   * Deletes a comment with its replies (and their notifications, by cascade) and adjusts the counters; the
   * post's state after it, or undefined when the comment was already gone.
   */
  delete(ref: CommentRef): Promise<NotifyingPostState | undefined> {
    return this.changing(async (trx) => {
      // Locked first, like every comment write: the replies counted below cannot change underneath.
      await this.bumpPost(trx, ref.postId, 0);
      const withdrawn = await recipientsAbout(trx, { commentId: ref.id });
      const replies = await trx
        .deleteFrom('comments')
        .where('parentId', '=', ref.id)
        .executeTakeFirst();
      const own = await trx.deleteFrom('comments').where('id', '=', ref.id).executeTakeFirst();
      if (own.numDeletedRows === 0n) throw new NothingChanged();
      const removed = toCount(own.numDeletedRows + replies.numDeletedRows);
      await trx
        .updateTable('posts')
        .set((eb) => ({ commentCount: eb('commentCount', '-', removed) }))
        .where('id', '=', ref.postId)
        .execute();
      if (ref.parentId !== null) {
        await trx
          .updateTable('comments')
          .set((eb) => ({ replyCount: eb('replyCount', '-', 1) }))
          .where('id', '=', ref.parentId)
          .execute();
      }
      return this.postAfter(trx, ref.postId, { deliveries: [], withdrawn });
    });
  }

  /**
   * Adds the user's like unless it is there and notifies the comment's author; the post's state after it,
   * or undefined when nothing changed.
   */
  like(ref: CommentRef, userId: string): Promise<NotifyingPostState | undefined> {
    return this.changing(async (trx) => {
      await this.bumpPost(trx, ref.postId, 0);
      const result = await trx
        .insertInto('comment_likes')
        .values({ commentId: ref.id, userId, createdAt: new Date().toISOString() })
        .onConflict((oc) => oc.columns(['commentId', 'userId']).doNothing())
        .executeTakeFirst();
      if (!result.numInsertedOrUpdatedRows) throw new NothingChanged();
      await trx
        .updateTable('comments')
        .set((eb) => ({ likeCount: eb('likeCount', '+', 1) }))
        .where('id', '=', ref.id)
        .execute();
      const deliveries = await this.notifications.record(
        trx,
        { actorId: userId, postId: ref.postId, commentId: ref.id },
        [{ kind: 'comment_like', recipientId: ref.authorId }],
      );
      return this.postAfter(trx, ref.postId, { deliveries, withdrawn: [] });
    });
  }

  /**
   * Removes the user's like if it is there, and its notification; the post's state after it, or undefined
   * when nothing changed.
   */
  unlike(ref: CommentRef, userId: string): Promise<NotifyingPostState | undefined> {
    return this.changing(async (trx) => {
      await this.bumpPost(trx, ref.postId, 0);
      const result = await trx
        .deleteFrom('comment_likes')
        .where('commentId', '=', ref.id)
        .where('userId', '=', userId)
        .executeTakeFirst();
      if (result.numDeletedRows === 0n) throw new NothingChanged();
      await trx
        .updateTable('comments')
        .set((eb) => ({ likeCount: eb('likeCount', '-', 1) }))
        .where('id', '=', ref.id)
        .execute();
      const withdrawn = await withdrawNotifications(trx, {
        kind: 'comment_like',
        actorId: userId,
        commentId: ref.id,
      });
      return this.postAfter(trx, ref.postId, { deliveries: [], withdrawn });
    });
  }

  /** A comment's like count, and whether the user likes it; undefined when the comment is gone. */
  async likeState(
    commentId: string,
    userId: string,
  ): Promise<{ likeCount: number; liked: boolean } | undefined> {
    const row = await this.db
      .selectFrom('comments')
      .leftJoin('comment_likes', (join) =>
        join
          .onRef('comment_likes.commentId', '=', 'comments.id')
          .on('comment_likes.userId', '=', userId),
      )
      .select(['comments.likeCount', 'comment_likes.id as likeId'])
      .where('comments.id', '=', commentId)
      .executeTakeFirst();
    return row && { likeCount: row.likeCount, liked: row.likeId !== null };
  }

  /** Comments with their author and the author's avatar, in one query. */
  private rows() {
    return this.db
      .selectFrom('comments')
      .innerJoin('users as author', 'author.id', 'comments.authorId')
      .select([
        'comments.id',
        'comments.postId',
        'comments.parentId',
        'comments.body',
        'comments.createdAt',
        'comments.editedAt',
        'comments.likeCount',
        'comments.replyCount',
        'comments.removedAt',
        'comments.removalReason',
        ...authorSelection,
      ])
      .select((eb) => authorAvatarRenditions(eb));
  }

  /**
   * The post's state once the write is done, read in its transaction under the lock `bumpPost` took: what
   * the write publishes (ADR 0013).
   */
  private async postAfter(
    trx: Transaction<Database>,
    postId: string,
    notified: Notified,
  ): Promise<NotifyingPostState> {
    const state = await readPostState(trx, postId);
    if (!state) throw new NothingChanged();
    return { ...state, notified };
  }

  /**
   * Bumps the post's comments revision and comment count by `added`, which also locks the post row for the
   * rest of the transaction. A post that is gone stops the write.
   */
  private async bumpPost(trx: Transaction<Database>, postId: string, added: number) {
    const result = await trx
      .updateTable('posts')
      .set((eb) => ({
        commentsRevision: eb('commentsRevision', '+', 1),
        commentCount: eb('commentCount', '+', added),
      }))
      .where('id', '=', postId)
      .executeTakeFirst();
    if (result.numUpdatedRows === 0n) throw new NothingChanged();
  }

  /** Runs a write in a transaction; undefined (and rolled back) when it found nothing to change. */
  private async changing<T>(
    work: (trx: Transaction<Database>) => Promise<T>,
  ): Promise<T | undefined> {
    try {
      return await this.db.transaction().execute(work);
    } catch (error) {
      if (error instanceof NothingChanged) return undefined;
      throw error;
    }
  }
}
