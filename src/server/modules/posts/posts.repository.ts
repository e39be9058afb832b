import { PostgresAdapter, sql, type Kysely, type SqlBool, type Transaction } from 'kysely';
import { isForeignKeyViolation } from '../../db/constraint-errors.js';
import { prepare } from '../../db/prepared.js';
import type { KindSetting } from '../../../shared/schemas/notification.js';
import type { Database } from '../../db/schema.js';
import { isTrue, toCount, toId, toIsoString, toIsoStringOrNull } from '../../db/values.js';
import type { NewMedia } from '../../media/stored-image.js';
import {
  groupKeyOf,
  nothingNotified,
  recipientsAbout,
  NotificationRecorder,
  screenedDelivery,
  withdrawNotifications,
  type Delivery,
  type Notified,
  type ScreenedRecipients,
} from '../notifications/notifications.repository.js';
import {
  notBlockedEitherWay,
  notMuted,
  visibleAuthor,
} from '../relationships/hidden.repository.js';
import {
  authorAvatarRenditions,
  authorSelection,
  type AuthorColumns,
} from '../users/authors.repository.js';
import { userRecordReader, type UserRecord } from '../users/users.repository.js';

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

/** What a post's image is read with, one post or many. */
const postMediaColumns = [
  'post_media.postId',
  'post_media.position',
  'media.id',
  'media.alt',
  'media.width',
  'media.height',
  'media.renditions',
] as const;

/** The images of many posts in one query, in display order. */
async function postMedia(db: Kysely<Database>, postIds: string[]): Promise<PostMediaRecord[]> {
  if (postIds.length === 0) return [];
  const rows = await db
    .selectFrom('post_media')
    .innerJoin('media', 'media.id', 'post_media.mediaId')
    .select(postMediaColumns)
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

/** The post's own columns, as a write that changes them returns them (no author, no images). */
const postColumns = [
  'id',
  'authorId',
  'body',
  'createdAt',
  'editedAt',
  'likeCount',
  'commentCount',
  'commentsRevision',
  'removedAt',
  'removalReason',
] as const;

/**
 * What a like must know before it writes, read at once: the post as lists show it, and what its author's
 * notification depends on. The like checks and notifies from it instead of asking again.
 */
export interface LikeTarget extends PostState {
  /** The liker or the author blocks the other. */
  blocked: boolean;
  /** The author mutes the liker (so hears nothing of the like). */
  muted: boolean;
  /** The author's stored notification settings; null when they never saved any. */
  authorSettings: string | null;
}

/** A like's outcome: the post's state afterwards, and whether the like was new (a repeat changes nothing). */
export type LikeOutcome = NotifyingPostState & { changed: boolean };

/**
 * The read of a like, compiled once (a like is the busiest write): the post with its author, whether
 * either person blocks the other, whether the author mutes the liker, the author's settings, and whether
 * the post has images to read.
 */
function likeTargetQuery(db: Kysely<Database>) {
  return prepare(db, (p: { postId: string; likerId: string; now: string }) => {
    const author = sql.ref('posts.authorId');
    return postRecords(db)
      .select((eb) => [
        sql<SqlBool>`exists (select 1 from ${sql.table('blocks')} where (${sql.ref('blocks.blockerId')} = ${p.likerId} and ${sql.ref('blocks.blockedId')} = ${author}) or (${sql.ref('blocks.blockerId')} = ${author} and ${sql.ref('blocks.blockedId')} = ${p.likerId}))`.as(
          'blocked',
        ),
        sql<SqlBool>`exists (select 1 from ${sql.table('mutes')} where ${sql.ref('mutes.muterId')} = ${author} and ${sql.ref('mutes.mutedId')} = ${p.likerId} and (${sql.ref('mutes.expiresAt')} is null or ${sql.ref('mutes.expiresAt')} > ${p.now}))`.as(
          'muted',
        ),
        eb
          .selectFrom('notification_states')
          .select('notification_states.settings')
          .whereRef('notification_states.userId', '=', 'posts.authorId')
          .as('authorSettings'),
        // Most posts have no images: their like reads none, one statement (a round trip) fewer.
        sql<SqlBool>`exists (select 1 from ${sql.table('post_media')} where ${sql.ref('post_media.postId')} = ${sql.ref('posts.id')})`.as(
          'hasMedia',
        ),
      ])
      .where('posts.id', '=', p.postId);
  });
}

/** The images of one post, compiled once. */
function postMediaQuery(db: Kysely<Database>) {
  return prepare(db, (p: { postId: string }) =>
    db
      .selectFrom('post_media')
      .innerJoin('media', 'media.id', 'post_media.mediaId')
      .select(postMediaColumns)
      .where('post_media.postId', '=', p.postId)
      .orderBy('post_media.position'),
  );
}

/**
 * Which of some posts a person likes, compiled once per list length: every page of posts a signed-in
 * reader sees asks it.
 */
function likedAmongQuery(db: Kysely<Database>) {
  return prepare(db, (p: { userId: string; postIds: string[] }) =>
    db
      .selectFrom('post_likes')
      .select('postId')
      .where('userId', '=', p.userId)
      .where('postId', 'in', p.postIds),
  );
}

/** The newest post's id, compiled once: every change a write publishes to the feed carries it. */
function headQuery(db: Kysely<Database>) {
  return prepare(db, () => db.selectFrom('posts').select('id').orderBy('id', 'desc').limit(1));
}

/** A new post's row, compiled once (a new post is the second busiest write); run in its transaction. */
function insertPostQuery(db: Kysely<Database>) {
  return prepare(db, (p: { authorId: string; body: string; createdAt: string }) =>
    db
      .insertInto('posts')
      .values({ authorId: p.authorId, body: p.body, createdAt: p.createdAt })
      .returning(postColumns),
  );
}

/** One more post on its author's count, compiled once; run in the new post's transaction. */
function countPostQuery(db: Kysely<Database>) {
  return prepare(db, (p: { authorId: string }) =>
    db
      .updateTable('users')
      .set((eb) => ({ postCount: eb('postCount', '+', 1) }))
      .where('id', '=', p.authorId),
  );
}

/**
 * A like's row. `pendingRecipientId`: the author, when its notification waits for their bell (ADR 0055).
 * A type rather than an interface, since a prepared query's parameters must fit a record.
 */
type LikeRow = {
  postId: string;
  userId: string;
  createdAt: string;
  pendingRecipientId: string | null;
};

/** A like's row as both of its writes insert it (from a prepared query's parameters). */
const likeRow = (p: LikeRow): LikeRow => ({
  postId: p.postId,
  userId: p.userId,
  createdAt: p.createdAt,
  pendingRecipientId: p.pendingRecipientId,
});

/** A like's row, compiled once; nothing when the person already likes the post. Run in its transaction. */
function insertLikeQuery(db: Kysely<Database>) {
  return prepare(db, (p: LikeRow) =>
    db
      .insertInto('post_likes')
      .values(likeRow(p))
      .onConflict((oc) => oc.columns(['postId', 'userId']).doNothing())
      .returning('id'),
  );
}

/** One more like on a post's count, returning its columns; compiled once, run in the like's transaction. */
function countLikeQuery(db: Kysely<Database>) {
  return prepare(db, (p: { postId: string }) =>
    db
      .updateTable('posts')
      .set((eb) => ({ likeCount: eb('likeCount', '+', 1) }))
      .where('id', '=', p.postId)
      .returning(postColumns),
  );
}

/**
 * PostgreSQL: a like's writes as one statement, compiled once (ADR 0048). The like (nothing on a repeat),
 * naming the author whose bell its notification waits for, if it does (ADR 0055); when it is new, one more
 * on the post's count, returning the post's columns; and when `notify` holds, the author's notification
 * written now, with the like's time. One statement is its own transaction and one round trip
 * to the server, where BEGIN, three statements and COMMIT were five. No row: the like was a repeat.
 */
function likeAtOnceQuery(db: Kysely<Database>) {
  return prepare(db, (p: LikeRow & { recipientId: string; groupKey: string; notify: boolean }) =>
    db
      .with('liked', (qb) =>
        qb
          .insertInto('post_likes')
          .values(likeRow(p))
          .onConflict((oc) => oc.columns(['postId', 'userId']).doNothing())
          .returning(['post_likes.postId', 'post_likes.createdAt']),
      )
      .with('counted', (qb) =>
        qb
          .updateTable('posts')
          .set((eb) => ({ likeCount: eb('likeCount', '+', 1) }))
          .where('id', 'in', (eb) => eb.selectFrom('liked').select('liked.postId'))
          .returning(postColumns),
      )
      .with('notified', (qb) =>
        qb
          .insertInto('notifications')
          .columns(['recipientId', 'actorId', 'kind', 'postId', 'groupKey', 'createdAt'])
          .expression((eb) =>
            eb
              .selectFrom('liked')
              .select([
                sql<string>`cast(${p.recipientId} as text)`.as('recipientId'),
                sql<string>`cast(${p.userId} as text)`.as('actorId'),
                sql.lit('like').as('kind'),
                'liked.postId',
                sql<string>`cast(${p.groupKey} as text)`.as('groupKey'),
                'liked.createdAt',
              ])
              .where(sql<SqlBool>`cast(${p.notify} as boolean)`),
          )
          .returning('notifications.id'),
      )
      .selectFrom('counted')
      .selectAll('counted')
      .select((eb) => eb.selectFrom('notified').select('notified.id').as('notificationId')),
  );
}

/**
 * PostgreSQL: a new post of text alone (no images, no mentions to notify) as one statement, compiled once
 * per number of tags (ADR 0048): the post, returning its columns; its tags; and one more on its author's
 * count. BEGIN, three statements and COMMIT were five round trips.
 */
function createAtOnceQuery(db: Kysely<Database>) {
  return prepare(db, (p: { authorId: string; body: string; createdAt: string; tags: string[] }) => {
    const written = db
      .with('inserted', (qb) =>
        qb
          .insertInto('posts')
          .values({ authorId: p.authorId, body: p.body, createdAt: p.createdAt })
          .returning(postColumns),
      )
      .with('counted', (qb) =>
        qb
          .updateTable('users')
          .set((eb) => ({ postCount: eb('postCount', '+', 1) }))
          .where('id', '=', p.authorId)
          .returning('users.id'),
      );
    if (p.tags.length === 0) return written.selectFrom('inserted').selectAll('inserted');
    const newId = sql<string>`(select ${sql.ref('inserted.id')} from ${sql.table('inserted')})`;
    return written
      .with('tagged', (qb) =>
        qb.insertInto('post_tags').values(p.tags.map((tag) => ({ tag, postId: newId }))),
      )
      .selectFrom('inserted')
      .selectAll('inserted');
  });
}

/** The author columns of a post, from its author's record. */
const authorColumnsOf = (author: UserRecord): AuthorColumns => ({
  authorUid: author.id,
  authorUsername: author.username,
  authorFirstName: author.firstName,
  authorLastName: author.lastName,
  authorDisplayName: author.displayName,
  authorActive: author.active,
  authorAvatarRenditions: author.avatarRenditions,
});

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

  private readonly likeTargetQuery: ReturnType<typeof likeTargetQuery>;
  private readonly postMediaQuery: ReturnType<typeof postMediaQuery>;
  private readonly headQuery: ReturnType<typeof headQuery>;
  private readonly likedAmongQuery: ReturnType<typeof likedAmongQuery>;
  private readonly insertPostQuery: ReturnType<typeof insertPostQuery>;
  private readonly countPostQuery: ReturnType<typeof countPostQuery>;
  private readonly readAuthor: ReturnType<typeof userRecordReader>;
  private readonly insertLikeQuery: ReturnType<typeof insertLikeQuery>;
  private readonly countLikeQuery: ReturnType<typeof countLikeQuery>;
  /** PostgreSQL's one-statement like and new post; null on SQLite, whose statements cost no round trip. */
  private readonly likeAtOnceQuery: ReturnType<typeof likeAtOnceQuery> | null;
  private readonly createAtOnceQuery: ReturnType<typeof createAtOnceQuery> | null;
  private readonly notifications: NotificationRecorder;

  constructor(private readonly db: Kysely<Database>) {
    this.notifications = new NotificationRecorder(db);
    this.likeTargetQuery = likeTargetQuery(db);
    this.postMediaQuery = postMediaQuery(db);
    this.headQuery = headQuery(db);
    this.likedAmongQuery = likedAmongQuery(db);
    this.insertPostQuery = insertPostQuery(db);
    this.countPostQuery = countPostQuery(db);
    this.readAuthor = userRecordReader(db);
    this.insertLikeQuery = insertLikeQuery(db);
    this.countLikeQuery = countLikeQuery(db);
    const postgres = db.getExecutor().adapter instanceof PostgresAdapter;
    this.likeAtOnceQuery = postgres ? likeAtOnceQuery(db) : null;
    this.createAtOnceQuery = postgres ? createAtOnceQuery(db) : null;
  }

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

  /** The images of many posts in one query. */
  mediaFor(postIds: string[]): Promise<PostMediaRecord[]> {
    return postMedia(this.db, postIds);
  }

  /** Which of `postIds` the user likes, in one query. */
  async likedAmong(userId: string, postIds: string[]): Promise<Set<string>> {
    if (postIds.length === 0) return new Set();
    const rows = await this.likedAmongQuery.execute({ userId, postIds });
    return new Set(rows.map((row) => toId(row.postId)));
  }

  /**
   * Post ids alone: a list walks its keyset with its filters here, and its documents come from the read
   * cache, or one batched read of the ones it misses (ADR 0028).
   */
  private ids() {
    return this.db.selectFrom('posts').select('posts.id');
  }

  /**
   * Ids of a page, newest first below `before`; or, with `after`, the newest posts above it (still newest
   * first).
   */
  private async page(query: ReturnType<PostsRepository['ids']>, bounds: Bounds): Promise<string[]> {
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
    return rows.map((row) => toId(row.id));
  }

  listEveryone(bounds: Bounds, tag?: string): Promise<string[]> {
    if (!tag) return this.page(this.ids(), bounds);
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
    return this.page(this.ids().where('posts.id', 'in', tagged), bounds);
  }

  listByAuthor(authorId: string, bounds: Bounds): Promise<string[]> {
    return this.page(this.ids().where('posts.authorId', '=', authorId), bounds);
  }

  /** Posts by the people `uid` follows, and by `uid`. */
  async listFollowing(uid: string, bounds: Bounds): Promise<string[]> {
    const followees = this.db
      .selectFrom('follows')
      .select('follows.followeeId')
      .where('follows.followerId', '=', uid);
    if (!(await this.walksFollowing(uid))) {
      return this.page(
        this.ids().where((eb) =>
          eb.or([eb('posts.authorId', 'in', followees), eb('posts.authorId', '=', uid)]),
        ),
        bounds,
      );
    }
    // `authorId || ''` hides the author index from the planner, so it walks (id, authorId) newest first
    // instead of gathering every post of every followee; only the page's rows are then read (ADR 0007).
    const author = sql<string>`${sql.ref('walk.authorId')} || ''`;
    // A block ends the follows both ways (ADR 0022), so the walk leaves out muted followees alone, once
    // for the whole list rather than probing blocks and mutes at every post it passes. The page's own
    // rows are still checked against both, which also covers a follow racing a block.
    const unmuted = followees.where(notMuted(uid, 'follows.followeeId'));
    let walk = this.db
      .selectFrom('posts as walk')
      .select('walk.id')
      .where((eb) => eb.or([eb(author, 'in', unmuted), eb(author, '=', uid)]));
    if (bounds.before) walk = walk.where('walk.id', '<', bounds.before);
    if (bounds.after) walk = walk.where('walk.id', '>', bounds.after);
    walk = walk.orderBy('walk.id', 'desc').limit(bounds.limit);
    return this.page(this.ids().where('posts.id', 'in', walk), bounds);
  }

  /** Whom `uid` follows, at most `max` + 1 of them: what their cached Following page depends on (ADR 0028). */
  async followeesOf(uid: string, max: number): Promise<string[]> {
    const rows = await this.db
      .selectFrom('follows')
      .select('followeeId')
      .where('followerId', '=', uid)
      .limit(max + 1)
      .execute();
    return rows.map((row) => row.followeeId);
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

  /** The newest post id, or null when there are no posts. Every published post change carries it. */
  async head(): Promise<string | null> {
    const row = await this.headQuery.executeTakeFirst({});
    return row ? toId(row.id) : null;
  }

  /**
   * Creates a post with its images and tags, counts it on its author and notifies the people it mentions,
   * in one transaction. Returns the new post's state (its images as written, its row as inserted, with the
   * author's columns) and its author's record after the count, both read in the transaction. Undefined
   * when the author's account was deleted after the request was let in: the post's key to it fails, and
   * nothing is written.
   */
  async create(post: NewPost): Promise<(NotifyingPostState & { author: UserRecord }) | undefined> {
    try {
      // Images and mentions are written and read in a transaction, on both databases.
      if (this.createAtOnceQuery && post.media.length === 0 && post.mentions.length === 0) {
        return await this.createAtOnce(this.createAtOnceQuery, post);
      }
      return await this.createInTransaction(post);
    } catch (error) {
      if (isForeignKeyViolation(error)) return undefined;
      throw error;
    }
  }

  /** `create` in one transaction: a post with images or mentions, and every post on SQLite. */
  private createInTransaction(post: NewPost): Promise<NotifyingPostState & { author: UserRecord }> {
    return this.db.transaction().execute(async (trx) => {
      const createdAt = now();
      const inserted = await this.insertPostQuery.executeTakeFirst(
        { authorId: post.authorId, body: post.body, createdAt },
        trx,
      );
      if (!inserted) throw new Error('the new post was not returned by its insert');
      const id = inserted.id;
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
      // The author's record after the count gives both documents the write publishes: the post's (its
      // author columns) and the author's own (the post count). Nothing is read back after the commit
      // (ADR 0029).
      await this.countPostQuery.execute({ authorId: post.authorId }, trx);
      const author = await this.readAuthor(trx, post.authorId);
      if (!author) throw new Error('the author of a new post is gone');
      const deliveries = await this.notifications.record(
        trx,
        { actorId: post.authorId, postId, commentId: null },
        [],
        post.mentions,
      );
      return {
        record: toPostRecord({ ...inserted, ...authorColumnsOf(author) }),
        media,
        notified: { deliveries, withdrawn: [] },
        author,
      };
    });
  }

  /**
   * `create` on PostgreSQL for a post of text alone: one statement, then its author's record as it left it
   * (the new count). Undefined when the account was deleted right after: the post went with it.
   */
  private async createAtOnce(
    query: ReturnType<typeof createAtOnceQuery>,
    post: NewPost,
  ): Promise<(NotifyingPostState & { author: UserRecord }) | undefined> {
    const inserted = await query.executeTakeFirst({
      authorId: post.authorId,
      body: post.body,
      createdAt: now(),
      tags: post.tags,
    });
    if (!inserted) throw new Error('the new post was not returned by its insert');
    const author = await this.readAuthor(this.db, post.authorId);
    if (!author) return undefined;
    return {
      record: toPostRecord({ ...inserted, ...authorColumnsOf(author) }),
      media: [],
      notified: nothingNotified,
      author,
    };
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
        const deliveries = await this.notifications.record(
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
   * A post as a like needs it, with its author's standing towards `likerId`, in two queries (the row with
   * its checks, then its images). Undefined when the post does not exist.
   */
  async likeTarget(postId: string, likerId: string): Promise<LikeTarget | undefined> {
    const row = await this.likeTargetQuery.executeTakeFirst({ postId, likerId, now: now() });
    if (!row) return undefined;
    const { blocked, muted, authorSettings, hasMedia, ...post } = row;
    const media = isTrue(hasMedia) ? await this.postMediaQuery.execute({ postId }) : [];
    return {
      record: toPostRecord(post),
      media: media.map((image) => ({ ...image, postId: toId(image.postId) })),
      blocked: isTrue(blocked),
      muted: isTrue(muted),
      authorSettings: authorSettings ?? null,
    };
  }

  /**
   * Likes a post read by likeTarget, in one transaction: the like (a repeat inserts nothing and changes
   * nothing else), the count, and the author's notification from what was read with the post. Undefined
   * when the post was deleted since it was read.
   *
   * A notification shown in the app and mailed never (the default for likes) is not written now: the like
   * names its author as waiting, and the notification is written when the author's bell is next read
   * (ADR 0055). Any other delivery (a mail, a digest line) is written with the like, as before.
   */
  async like(target: LikeTarget, userId: string): Promise<LikeOutcome | undefined> {
    const postId = target.record.id;
    const authorId = target.record.authorId;
    const screened: ScreenedRecipients = {
      hiding: new Set(target.muted ? [authorId] : []),
      settings: new Map([[authorId, target.authorSettings]]),
    };
    const delivery = screenedDelivery(userId, { kind: 'like', recipientId: authorId }, screened);
    const pendingFor = delivery?.inApp === true && delivery.email === 'never' ? authorId : null;
    // A line in the author's daily digest is queued in a transaction, as every notifying write does.
    if (this.likeAtOnceQuery && delivery?.email !== 'digest') {
      return this.likeAtOnce(this.likeAtOnceQuery, target, userId, delivery, pendingFor);
    }
    try {
      return await this.db.transaction().execute(async (trx) => {
        // The like's foreign key holds the post (PostgreSQL's key-share lock) until the commit, so a
        // deletion either finished before (the insert fails on the key) or waits for this transaction.
        const inserted = await this.insertLikeQuery.executeTakeFirst(
          { postId, userId, createdAt: now(), pendingRecipientId: pendingFor },
          trx,
        );
        if (!inserted) {
          return {
            record: target.record,
            media: target.media,
            notified: nothingNotified,
            changed: false,
          };
        }
        const counted = await this.countLikeQuery.executeTakeFirst({ postId }, trx);
        if (!counted) throw new Error('the liked post was not returned by its count');
        const deliveries =
          pendingFor === null && delivery !== null
            ? await this.notifications.record(
                trx,
                { actorId: userId, postId, commentId: null },
                [{ kind: 'like', recipientId: authorId }],
                [],
                screened,
              )
            : [];
        return {
          record: toPostRecord({ ...target.record, ...counted }),
          media: target.media,
          notified: { deliveries, withdrawn: [], pending: pendingFor === null ? [] : [pendingFor] },
          changed: true,
        };
      });
    } catch (error) {
      return this.likeRefused(error, postId);
    }
  }

  /**
   * A like its database refused: undefined when the post was deleted since it was read (the like's key
   * to it found none). A post that is still there means the key to the liker failed (an account deleted
   * meanwhile, ADR 0049), or another fault: the error goes on.
   */
  private async likeRefused(error: unknown, postId: string): Promise<undefined> {
    if (isForeignKeyViolation(error) && !(await this.findById(postId))) return undefined;
    throw error;
  }

  /** `like` on PostgreSQL, in one statement: how its author hears of it is decided from its read. */
  private async likeAtOnce(
    query: ReturnType<typeof likeAtOnceQuery>,
    target: LikeTarget,
    userId: string,
    delivery: KindSetting | null,
    pendingFor: string | null,
  ): Promise<LikeOutcome | undefined> {
    const { id: postId, authorId: recipientId } = target.record;
    const cause = { actorId: userId, postId, commentId: null };
    let row: Awaited<ReturnType<typeof query.executeTakeFirst>>;
    try {
      row = await query.executeTakeFirst({
        postId,
        userId,
        createdAt: now(),
        recipientId,
        groupKey: groupKeyOf('like', cause) ?? '',
        notify: delivery?.inApp === true && pendingFor === null,
        pendingRecipientId: pendingFor,
      });
    } catch (error) {
      return this.likeRefused(error, postId);
    }
    if (!row) {
      return {
        record: target.record,
        media: target.media,
        notified: nothingNotified,
        changed: false,
      };
    }
    const { notificationId, ...counted } = row;
    if (pendingFor !== null) {
      return {
        record: toPostRecord({ ...target.record, ...counted }),
        media: target.media,
        notified: { deliveries: [], withdrawn: [], pending: [pendingFor] },
        changed: true,
      };
    }
    const deliveries: Delivery[] = delivery
      ? [
          {
            ...cause,
            id: notificationId === null ? null : toId(notificationId),
            kind: 'like',
            recipientId,
            email: delivery.email,
          },
        ]
      : [];
    return {
      record: toPostRecord({ ...target.record, ...counted }),
      media: target.media,
      notified: { deliveries, withdrawn: [] },
      changed: true,
    };
  }

  /**
   * Unlikes, withdrawing the like's notification; a repeat changes nothing. The post's row lock comes
   * first: deleting the like first could deadlock with a deletion of the post that cascades to the same
   * like (ADR 0029). Returns the post's state afterwards, or undefined when the post does not exist.
   */
  async unlike(postId: string, userId: string): Promise<LikeOutcome | undefined> {
    return this.db.transaction().execute(async (trx) => {
      if ((await this.lockPost(trx, postId)) === undefined) return undefined;
      const removed = await trx
        .deleteFrom('post_likes')
        .where('postId', '=', postId)
        .where('userId', '=', userId)
        .executeTakeFirst();
      const changed = removed.numDeletedRows > 0n;
      let notified = nothingNotified;
      if (changed) {
        await trx
          .updateTable('posts')
          .set((eb) => ({ likeCount: eb('likeCount', '-', 1) }))
          .where('id', '=', postId)
          .execute();
        notified = {
          deliveries: [],
          withdrawn: await withdrawNotifications(trx, { kind: 'like', actorId: userId, postId }),
        };
      }
      const state = await readPostState(trx, postId);
      return state && { ...state, notified, changed };
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
