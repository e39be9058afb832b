import { sql, type Kysely, type Transaction } from 'kysely';
import type { Database } from '../../db/schema.js';
import { toCount, toId, toIsoString, toIsoStringOrNull } from '../../db/values.js';
import type { NewMedia } from '../../media/stored-image.js';
import {
  nothingNotified,
  recipientsAbout,
  recordNotifications,
  withdrawNotifications,
  type Notified,
} from '../notifications/notifications.repository.js';
import { notBlockedEitherWay, visibleAuthor } from '../relationships/hidden.repository.js';
import {
  authorAvatarRenditions,
  authorSelection,
  type AuthorColumns,
} from '../users/authors.repository.js';

/** A post row with its author, as every list and lookup reads it. */
export interface PostRecord extends AuthorColumns {
  id: string;
  authorId: string;
  body: string;
  createdAt: string;
  editedAt: string | null;
  likeCount: number;
  commentCount: number;
  commentsRevision: number;
  /** Removed by moderators (ADR 0021): shown to its author alone. */
  removedAt: string | null;
  removalReason: string | null;
}

/** A post as either dialect reads it, before its id and timestamps take one shape (db/values.ts). */
type PostRow = Omit<PostRecord, 'id' | 'createdAt' | 'editedAt' | 'removedAt'> & {
  id: number | string;
  createdAt: Date | string;
  editedAt: Date | string | null;
  removedAt: Date | string | null;
};

const toPostRecord = (row: PostRow): PostRecord => ({
  ...row,
  id: toId(row.id),
  createdAt: toIsoString(row.createdAt),
  editedAt: toIsoStringOrNull(row.editedAt),
  removedAt: toIsoStringOrNull(row.removedAt),
});

/** One image of a post, in display order. */
export interface PostMediaRecord {
  postId: string;
  position: number;
  id: string;
  alt: string | null;
  width: number;
  height: number;
  renditions: string;
}

export interface NewPost {
  authorId: string;
  body: string;
  tags: string[];
  media: NewMedia[];
  /** Lowercased usernames the text mentions, to notify. */
  mentions: string[];
}

export interface PostEdit {
  body: string;
  tags: string[];
  /** New alt texts by image position; a position left out keeps its text. */
  alts: Map<number, string | null>;
  /** The text being replaced and when it was written, kept as an earlier version. */
  previous: { body: string; writtenAt: string };
  /** Usernames the new text mentions and the old one did not, to notify. */
  mentions: string[];
}

/** Keyset bounds of a list: `before` pages towards older rows, `after` asks for newer ones. */
export interface Bounds {
  before?: string;
  after?: string;
  limit: number;
  /** The signed-in reader: posts of people hidden from them are left out (ADR 0022). */
  viewerId?: string;
  /** The signed-in reader when `viewerId` is not given: their own removed posts stay listed (ADR 0021). */
  reader?: string;
}

/**
 * Below this many posts by the people someone follows, the Following feed reads those authors' posts
 * through the (authorId, id) index and sorts them; above it, it walks all posts newest first and keeps
 * theirs, which finds a page after about `limit × all posts ÷ their posts` rows (ADR 0007).
 */
export const followingIndexThreshold = 2_000;

/** How long a reader's Following-feed plan is reused, and for how many readers at most. */
const followingPlanTtlMs = 60_000;
const followingPlanCacheSize = 10_000;

const now = () => new Date().toISOString();

/** Posts joined with their authors; one query, whatever the page size. */
function postRecords(db: Kysely<Database>) {
  return db
    .selectFrom('posts')
    .innerJoin('users as author', 'author.id', 'posts.authorId')
    .select([
      'posts.id',
      'posts.authorId',
      'posts.body',
      'posts.createdAt',
      'posts.editedAt',
      'posts.likeCount',
      'posts.commentCount',
      'posts.commentsRevision',
      'posts.removedAt',
      'posts.removalReason',
      ...authorSelection,
    ])
    .select((eb) => authorAvatarRenditions(eb));
}

/** The images of many posts in one query, in display order. */
async function postMedia(db: Kysely<Database>, postIds: string[]): Promise<PostMediaRecord[]> {
  if (postIds.length === 0) return [];
  const rows = await db
    .selectFrom('post_media')
    .innerJoin('media', 'media.id', 'post_media.mediaId')
    .select([
      'post_media.postId',
      'post_media.position',
      'media.id',
      'media.alt',
      'media.width',
      'media.height',
      'media.renditions',
    ])
    .where('post_media.postId', 'in', postIds)
    .orderBy('post_media.postId')
    .orderBy('post_media.position')
    .execute();
  return rows.map((row) => ({ ...row, postId: toId(row.postId) }));
}

/** A post as a write left it: what its document is built from, and published without reading it again. */
export interface PostState {
  record: PostRecord;
  media: PostMediaRecord[];
}

/** A post's state after a write, and the notifications the write made or removed. */
export type NotifyingPostState = PostState & { notified: Notified };

/**
 * A post's row and images as the write's own transaction sees them once it has written, under the post's
 * row lock: exact counts, and nothing left to read after the commit (ADR 0013). Undefined when the post is
 * gone.
 */
export async function readPostState(
  trx: Transaction<Database>,
  postId: string,
): Promise<PostState | undefined> {
  const row = await postRecords(trx).where('posts.id', '=', postId).executeTakeFirst();
  if (!row) return undefined;
  return { record: toPostRecord(row), media: await postMedia(trx, [postId]) };
}

/** The only place that reads and writes posts, their images, versions, tags and likes. */
export class PostsRepository {
  /** Per reader: whether their Following feed walks all posts, and until when that answer holds. */
  private readonly followingPlans = new Map<string, { walk: boolean; until: number }>();

  constructor(private readonly db: Kysely<Database>) {}

  /** Posts joined with their authors; one query, whatever the page size. */
  private records(db: Kysely<Database> = this.db) {
    return postRecords(db);
  }

  async findById(id: string): Promise<PostRecord | undefined> {
    const row = await this.records().where('posts.id', '=', id).executeTakeFirst();
    return row && toPostRecord(row);
  }

  /** Many posts in one query; ids of posts that are gone are left out. */
  async findByIds(ids: readonly string[]): Promise<PostRecord[]> {
    if (ids.length === 0) return [];
    const rows = await this.records()
      .where('posts.id', 'in', [...ids])
      .execute();
    return rows.map(toPostRecord);
  }

  /** Whether a post exists, without reading it. */
  async exists(id: string): Promise<boolean> {
    const row = await this.db
      .selectFrom('posts')
      .select('id')
      .where('id', '=', id)
      .executeTakeFirst();
    return row !== undefined;
  }

  /** Who wrote a post and whether the moderators removed it: what a like must check, in one small read. */
  async findStanding(id: string): Promise<{ authorId: string; removed: boolean } | undefined> {
    const row = await this.db
      .selectFrom('posts')
      .select(['authorId', 'removedAt'])
      .where('id', '=', id)
      .executeTakeFirst();
    return row && { authorId: row.authorId, removed: row.removedAt !== null };
  }

  /** The images of many posts in one query. */
  mediaFor(postIds: string[]): Promise<PostMediaRecord[]> {
    return postMedia(this.db, postIds);
  }

  /** Which of `postIds` the user likes, in one query. */
  async likedAmong(userId: string, postIds: string[]): Promise<Set<string>> {
    if (postIds.length === 0) return new Set();
    const rows = await this.db
      .selectFrom('post_likes')
      .select('postId')
      .where('userId', '=', userId)
      .where('postId', 'in', postIds)
      .execute();
    return new Set(rows.map((row) => toId(row.postId)));
  }

  /** Newest first below `before`; or, with `after`, the newest posts above it (still newest first). */
  private async page(
    query: ReturnType<PostsRepository['records']>,
    bounds: Bounds,
  ): Promise<PostRecord[]> {
    let bounded = query;
    if (bounds.before) bounded = bounded.where('posts.id', '<', bounds.before);
    if (bounds.after) bounded = bounded.where('posts.id', '>', bounds.after);
    if (bounds.viewerId) bounded = bounded.where(visibleAuthor(bounds.viewerId, 'posts.authorId'));
    // Removed by moderators: gone for everyone but its author (ADR 0021).
    const reader = bounds.viewerId ?? bounds.reader;
    bounded = bounded.where((eb) =>
      reader === undefined
        ? eb('posts.removedAt', 'is', null)
        : eb.or([eb('posts.removedAt', 'is', null), eb('posts.authorId', '=', reader)]),
    );
    const rows = await bounded.orderBy('posts.id', 'desc').limit(bounds.limit).execute();
    return rows.map(toPostRecord);
  }

  listEveryone(bounds: Bounds, tag?: string): Promise<PostRecord[]> {
    if (!tag) return this.page(this.records(), bounds);
    // The hashtag's rows are walked through its (tag, postId) key, bounded by the cursor, newest first.
    let tagged = this.db
      .selectFrom('post_tags')
      .select('post_tags.postId')
      .where('post_tags.tag', '=', tag);
    if (bounds.before) tagged = tagged.where('post_tags.postId', '<', bounds.before);
    if (bounds.after) tagged = tagged.where('post_tags.postId', '>', bounds.after);
    if (bounds.viewerId) {
      const viewerId = bounds.viewerId;
      tagged = tagged.where((eb) =>
        eb.exists(
          eb
            .selectFrom('posts as tagged')
            .select('tagged.id')
            .whereRef('tagged.id', '=', 'post_tags.postId')
            .where(visibleAuthor(viewerId, 'tagged.authorId')),
        ),
      );
    }
    tagged = tagged.orderBy('post_tags.postId', 'desc').limit(bounds.limit);
    return this.page(this.records().where('posts.id', 'in', tagged), bounds);
  }

  listByAuthor(authorId: string, bounds: Bounds): Promise<PostRecord[]> {
    return this.page(this.records().where('posts.authorId', '=', authorId), bounds);
  }

  /** Posts by the people `uid` follows, and by `uid`. */
  async listFollowing(uid: string, bounds: Bounds): Promise<PostRecord[]> {
    const followees = this.db
      .selectFrom('follows')
      .select('follows.followeeId')
      .where('follows.followerId', '=', uid);
    if (!(await this.walksFollowing(uid))) {
      return this.page(
        this.records().where((eb) =>
          eb.or([eb('posts.authorId', 'in', followees), eb('posts.authorId', '=', uid)]),
        ),
        bounds,
      );
    }
    // `authorId || ''` hides the author index from the planner, so it walks (id, authorId) newest first
    // instead of gathering every post of every followee; only the page's rows are then read (ADR 0007).
    const author = sql<string>`${sql.ref('walk.authorId')} || ''`;
    let walk = this.db
      .selectFrom('posts as walk')
      .select('walk.id')
      .where((eb) => eb.or([eb(author, 'in', followees), eb(author, '=', uid)]));
    if (bounds.before) walk = walk.where('walk.id', '<', bounds.before);
    if (bounds.after) walk = walk.where('walk.id', '>', bounds.after);
    if (bounds.viewerId) walk = walk.where(visibleAuthor(bounds.viewerId, 'walk.authorId'));
    walk = walk.orderBy('walk.id', 'desc').limit(bounds.limit);
    return this.page(this.records().where('posts.id', 'in', walk), bounds);
  }

  /**
   * Whether `uid`'s Following feed walks all posts (they follow many posts) or reads the followees' posts
   * by author. Decided from their followees' post counts, remembered for a minute per reader.
   */
  private async walksFollowing(uid: string): Promise<boolean> {
    const now = Date.now();
    const known = this.followingPlans.get(uid);
    if (known && known.until > now) return known.walk;
    const { total } = await this.db
      .selectFrom('users')
      .select((eb) =>
        eb.fn.coalesce(eb.fn.sum<number | string>('postCount'), sql<number>`0`).as('total'),
      )
      .where((eb) =>
        eb.or([
          eb(
            'users.id',
            'in',
            eb.selectFrom('follows').select('followeeId').where('followerId', '=', uid),
          ),
          eb('users.id', '=', uid),
        ]),
      )
      .executeTakeFirstOrThrow();
    const walk = toCount(total) > followingIndexThreshold;
    this.followingPlans.delete(uid);
    if (this.followingPlans.size >= followingPlanCacheSize) {
      const oldest = this.followingPlans.keys().next();
      if (!oldest.done) this.followingPlans.delete(oldest.value);
    }
    this.followingPlans.set(uid, { walk, until: now + followingPlanTtlMs });
    return walk;
  }

  /** The newest post id, or null when there are no posts. */
  async head(): Promise<string | null> {
    const row = await this.db
      .selectFrom('posts')
      .select('id')
      .orderBy('id', 'desc')
      .limit(1)
      .executeTakeFirst();
    return row ? toId(row.id) : null;
  }

  /**
   * Creates a post with its images and tags, counts it on its author and notifies the people it mentions,
   * in one transaction. Returns the new post's state: its images as written, its row (with the author's
   * columns) read in the transaction.
   */
  async create(post: NewPost): Promise<NotifyingPostState> {
    return this.db.transaction().execute(async (trx) => {
      const createdAt = now();
      const { id } = await trx
        .insertInto('posts')
        .values({ authorId: post.authorId, body: post.body, createdAt })
        .returning('id')
        .executeTakeFirstOrThrow();
      const postId = toId(id);
      const media: PostMediaRecord[] = [];
      for (const [position, stored] of post.media.entries()) {
        const row = {
          postId,
          position,
          id: stored.id,
          alt: stored.alt,
          width: stored.width,
          height: stored.height,
          renditions: JSON.stringify(stored.renditions),
        };
        await trx
          .insertInto('media')
          .values({
            id: row.id,
            ownerId: post.authorId,
            purpose: stored.purpose,
            alt: row.alt,
            width: row.width,
            height: row.height,
            renditions: row.renditions,
            createdAt,
          })
          .execute();
        await trx
          .insertInto('post_media')
          .values({ postId: id, mediaId: row.id, position })
          .execute();
        media.push(row);
      }
      await this.insertTags(trx, id, post.tags);
      await trx
        .updateTable('users')
        .set((eb) => ({ postCount: eb('postCount', '+', 1) }))
        .where('id', '=', post.authorId)
        .execute();
      const deliveries = await recordNotifications(
        trx,
        { actorId: post.authorId, postId, commentId: null },
        [],
        post.mentions,
      );
      const record = await postRecords(trx).where('posts.id', '=', id).executeTakeFirstOrThrow();
      return { record: toPostRecord(record), media, notified: { deliveries, withdrawn: [] } };
    });
  }

  /**
   * Replaces a post's text (keeping the old one as a version), its tags and any alt texts, and notifies the
   * people it newly mentions. Returns the post's state after the edit; undefined when the post is gone
   * (deleted while the edit was on its way).
   */
  async update(id: string, edit: PostEdit): Promise<NotifyingPostState | undefined> {
    return this.db.transaction().execute(async (trx) => {
      const author = await this.lockPost(trx, id);
      if (author === undefined) return undefined;
      let notified = nothingNotified;
      if (edit.body !== edit.previous.body) {
        await trx
          .insertInto('post_versions')
          .values({ postId: id, body: edit.previous.body, createdAt: edit.previous.writtenAt })
          .execute();
        await trx
          .updateTable('posts')
          .set({ body: edit.body, editedAt: now() })
          .where('id', '=', id)
          .execute();
        await trx.deleteFrom('post_tags').where('postId', '=', id).execute();
        await this.insertTags(trx, id, edit.tags);
        const deliveries = await recordNotifications(
          trx,
          { actorId: author, postId: id, commentId: null },
          [],
          edit.mentions,
        );
        notified = { deliveries, withdrawn: [] };
      }
      for (const [position, alt] of edit.alts) {
        await trx
          .updateTable('media')
          .set({ alt })
          .where('id', 'in', (eb) =>
            eb
              .selectFrom('post_media')
              .select('mediaId')
              .where('postId', '=', id)
              .where('position', '=', position),
          )
          .execute();
      }
      const state = await readPostState(trx, id);
      return state && { ...state, notified };
    });
  }

  /**
   * Deletes a post with everything hanging off it (its notifications by cascade) and uncounts it on its
   * author. Returns the renditions of its images, whose files the caller deletes, and whose notifications
   * went with it; false when it was already gone.
   */
  async delete(id: string): Promise<{ renditions: string[]; withdrawn: string[] } | false> {
    return this.db.transaction().execute(async (trx) => {
      const post = await trx
        .selectFrom('posts')
        .select('authorId')
        .where('id', '=', id)
        .executeTakeFirst();
      if (!post) return false;
      const media = await trx
        .selectFrom('post_media')
        .innerJoin('media', 'media.id', 'post_media.mediaId')
        .select(['media.id', 'media.renditions'])
        .where('post_media.postId', '=', id)
        .execute();
      const withdrawn = await recipientsAbout(trx, { postId: id });
      // Two deletions at once both find the post; only the one whose delete removes it uncounts it.
      const deleted = await trx.deleteFrom('posts').where('id', '=', id).executeTakeFirst();
      if (deleted.numDeletedRows === 0n) return false;
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
        .updateTable('users')
        .set((eb) => ({ postCount: eb('postCount', '-', 1) }))
        .where('id', '=', post.authorId)
        .execute();
      return { renditions: media.map((row) => row.renditions), withdrawn };
    });
  }

  /** Earlier texts of a post, newest first. */
  async versions(postId: string): Promise<{ body: string; createdAt: string }[]> {
    const rows = await this.db
      .selectFrom('post_versions')
      .select(['body', 'createdAt'])
      .where('postId', '=', postId)
      .orderBy('id', 'desc')
      .execute();
    return rows.map((row) => ({ body: row.body, createdAt: toIsoString(row.createdAt) }));
  }

  /**
   * Likes or unlikes, notifying the author or withdrawing that notification; a repeat changes nothing.
   * Returns the post's state afterwards (its like count included), or undefined when the post does not
   * exist.
   */
  async setLike(
    postId: string,
    userId: string,
    liked: boolean,
  ): Promise<NotifyingPostState | undefined> {
    return this.db.transaction().execute(async (trx) => {
      const author = await this.lockPost(trx, postId);
      if (author === undefined) return undefined;
      let changed: bigint;
      if (liked) {
        const result = await trx
          .insertInto('post_likes')
          .values({ postId, userId, createdAt: now() })
          .onConflict((oc) => oc.columns(['postId', 'userId']).doNothing())
          .executeTakeFirst();
        changed = result.numInsertedOrUpdatedRows ?? 0n;
      } else {
        const result = await trx
          .deleteFrom('post_likes')
          .where('postId', '=', postId)
          .where('userId', '=', userId)
          .executeTakeFirst();
        changed = result.numDeletedRows;
      }
      let notified = nothingNotified;
      if (changed > 0n) {
        await trx
          .updateTable('posts')
          .set((eb) => ({ likeCount: eb('likeCount', liked ? '+' : '-', 1) }))
          .where('id', '=', postId)
          .execute();
        notified = liked
          ? {
              deliveries: await recordNotifications(
                trx,
                { actorId: userId, postId, commentId: null },
                [{ kind: 'like', recipientId: author }],
              ),
              withdrawn: [],
            }
          : {
              deliveries: [],
              withdrawn: await withdrawNotifications(trx, {
                kind: 'like',
                actorId: userId,
                postId,
              }),
            };
      }
      const state = await readPostState(trx, postId);
      return state && { ...state, notified };
    });
  }

  /**
   * Takes the post's row lock (PostgreSQL; SQLite runs one write transaction at a time) and returns its
   * author, or undefined when it no longer exists. A deletion running at the same time then either
   * finished first, or waits for this transaction and removes what it wrote with the post: never a like or
   * version pointing at no post.
   */
  private async lockPost(trx: Transaction<Database>, id: string): Promise<string | undefined> {
    const row = await trx
      .updateTable('posts')
      .set((eb) => ({ likeCount: eb.ref('likeCount') }))
      .where('id', '=', id)
      .returning('authorId')
      .executeTakeFirst();
    return row?.authorId;
  }

  /** Who liked a post, most recent first; the cursor is the like's id. */
  async likers(postId: string, bounds: Bounds): Promise<(AuthorColumns & { cursor: string })[]> {
    let query = this.db
      .selectFrom('post_likes')
      .innerJoin('users as author', 'author.id', 'post_likes.userId')
      .select(['post_likes.id as cursor', ...authorSelection])
      .select((eb) => authorAvatarRenditions(eb))
      .where('post_likes.postId', '=', postId);
    if (bounds.before) query = query.where('post_likes.id', '<', bounds.before);
    if (bounds.viewerId) query = query.where(notBlockedEitherWay(bounds.viewerId, 'author.id'));
    const rows = await query.orderBy('post_likes.id', 'desc').limit(bounds.limit).execute();
    return rows.map((row) => ({ ...row, cursor: toId(row.cursor) }));
  }

  private async insertTags(trx: Transaction<Database>, postId: number | string, tags: string[]) {
    if (tags.length === 0) return;
    await trx
      .insertInto('post_tags')
      .values(tags.map((tag) => ({ tag, postId })))
      .execute();
  }
}
