import {
  PostgresAdapter,
  sql,
  type ExpressionBuilder,
  type Kysely,
  type Transaction,
} from 'kysely';
import { limits, notificationDelivery } from '../../../shared/limits.js';
import {
  groupedNotificationKinds,
  notificationKinds,
  type EmailMode,
  type KindSetting,
  type NotificationKind,
  type NotificationSettings,
  type NotificationTab,
} from '../../../shared/schemas/notification.js';
import type { Database } from '../../db/schema.js';
import { isTrue, toCount, toId, toIdOrNull, toIsoString } from '../../db/values.js';
import {
  authorAvatarRenditions,
  authorSelection,
  type AuthorColumns,
} from '../users/authors.repository.js';
import { prepare } from '../../db/prepared.js';
import { settingFor, settingsFrom } from './notification-settings.js';
import { notBlockedEitherWay, recipientsHiding } from '../relationships/hidden.repository.js';

/** What an action is about: who did it, and the post and comment it concerns (null for a follow). */
export interface NotificationCause {
  actorId: string;
  postId: string | null;
  commentId: string | null;
}

/** Someone an action concerns, and how (the reply to their comment, the comment on their post). */
export interface NotificationTarget {
  kind: NotificationKind;
  recipientId: string;
}

/** One notification an action made, as its recipient's settings have it delivered. */
export interface Delivery extends NotificationCause {
  /** The in-app notification's id; null when the recipient turned this kind off in the app. */
  id: string | null;
  kind: NotificationKind;
  recipientId: string;
  email: EmailMode;
}

/** What a write did to notifications: those it made, and whose it removed (their bell changes). */
export interface Notified {
  deliveries: Delivery[];
  withdrawn: string[];
  /** Whose like notification waits for their bell to be read (ADR 0055): their bell changes too. */
  pending?: string[];
}

export const nothingNotified: Notified = { deliveries: [], withdrawn: [] };

/**
 * What the action's own read already learned of its recipients (a like reads its post's author with the
 * post): who of them hides from the actor, and each one's stored settings (null when never saved). Given
 * for every recipient, `NotificationRecorder.record` skips those reads.
 */
export interface ScreenedRecipients {
  hiding: ReadonlySet<string>;
  settings: ReadonlyMap<string, string | null>;
}

const isKind = (value: string): value is NotificationKind =>
  (notificationKinds as readonly string[]).includes(value);

/** A notification's row, compiled once: likes write one each, the busiest write (ADR 0041). */
function insertNotificationQuery(db: Kysely<Database>) {
  return prepare(
    db,
    (p: {
      recipientId: string;
      actorId: string;
      kind: NotificationKind;
      postId: string | null;
      commentId: string | null;
      groupKey: string | null;
      createdAt: string;
    }) =>
      db
        .insertInto('notifications')
        .values({
          recipientId: p.recipientId,
          actorId: p.actorId,
          kind: p.kind,
          postId: p.postId,
          commentId: p.commentId,
          groupKey: p.groupKey,
          createdAt: p.createdAt,
        })
        .returning('id'),
  );
}

/** Likes of one post, likes of one comment, and all follows form groups; other kinds stand alone. */
export function groupKeyOf(kind: NotificationKind, cause: NotificationCause): string | null {
  if (!groupedNotificationKinds.includes(kind)) return null;
  if (kind === 'follow') return 'follow';
  return `${kind}:${kind === 'like' ? String(cause.postId) : String(cause.commentId)}`;
}

/**
 * Writes the notifications of one action in the action's transaction (`record`), so they exist exactly
 * when the action does. `targets` come first, in order of precedence, then the people `mentioned` (lowercased usernames): each
 * person gets one notification at most, the first that names them (a reply that mentions its parent's
 * author is a reply), and none for their own action. A mention is skipped for someone already notified of
 * the same post or comment (an edit that adds a name twice). Settings decide what is shown in the app and
 * what is mailed; the result lists what the service delivers once the transaction commits.
 */
export class NotificationRecorder {
  readonly #insert: ReturnType<typeof insertNotificationQuery>;
  readonly #hasPendingLikes: ReturnType<typeof hasPendingLikesQuery>;

  constructor(db: Kysely<Database>) {
    this.#insert = insertNotificationQuery(db);
    this.#hasPendingLikes = hasPendingLikesQuery(db);
  }

  async record(
    trx: Transaction<Database>,
    cause: NotificationCause,
    targets: readonly NotificationTarget[],
    mentioned: readonly string[] = [],
    screened?: ScreenedRecipients,
  ): Promise<Delivery[]> {
    const chosen = new Map<string, NotificationKind>();
    const choose = (recipientId: string, kind: NotificationKind) => {
      if (recipientId !== cause.actorId && !chosen.has(recipientId)) chosen.set(recipientId, kind);
    };
    for (const target of targets) choose(target.recipientId, target.kind);

    const names = mentioned.slice(0, notificationDelivery.mentionsPerText);
    if (names.length > 0) {
      const people = await trx
        .selectFrom('users')
        .select(['id', 'username'])
        .where('username', 'in', names)
        .execute();
      const byName = new Map(people.map((person) => [person.username, person.id]));
      const mentionedIds = names
        .map((name) => byName.get(name))
        .filter((uid): uid is string => uid !== undefined && !chosen.has(uid));
      const already = await alreadyNotified(trx, cause, mentionedIds);
      for (const uid of mentionedIds) if (!already.has(uid)) choose(uid, 'mention');
    }
    if (chosen.size === 0) return [];
    const known = screened && [...chosen.keys()].every((uid) => screened.settings.has(uid));
    // Nobody hears from someone they block or mute, or who blocks them; nothing of it is kept (ADR 0022).
    const hiding = known
      ? screened.hiding
      : await recipientsHiding(trx, cause.actorId, [...chosen.keys()]);
    for (const uid of hiding) chosen.delete(uid);
    if (chosen.size === 0) return [];

    const stored = known
      ? [...chosen.keys()].map((userId) => ({
          userId,
          settings: screened.settings.get(userId) ?? null,
        }))
      : await trx
          .selectFrom('notification_states')
          .select(['userId', 'settings'])
          .where('userId', 'in', [...chosen.keys()])
          .execute();
    const settingsOf = new Map(stored.map((row) => [row.userId, settingsFrom(row.settings)]));
    const createdAt = new Date().toISOString();
    const deliveries: Delivery[] = [];
    for (const [recipientId, kind] of chosen) {
      const setting = deliveryOf(settingsOf.get(recipientId) ?? settingsFrom(null), kind);
      if (!setting) continue;
      let id: string | null = null;
      if (setting.inApp) {
        // Likes still waiting for this bell come first, so that ids keep the order of events (ADR 0055).
        if (await this.#hasPendingLikes.executeTakeFirst({ uid: recipientId }, trx)) {
          await writePendingLikes(trx, recipientId);
        }
        const row = await this.#insert.executeTakeFirst(
          {
            recipientId,
            actorId: cause.actorId,
            kind,
            postId: cause.postId,
            commentId: cause.commentId,
            groupKey: groupKeyOf(kind, cause),
            createdAt,
          },
          trx,
        );
        if (!row) throw new Error('the notification was not returned by its insert');
        id = toId(row.id);
      }
      const delivery: Delivery = { ...cause, id, kind, recipientId, email: setting.email };
      // Queued with the action, so undoing it (an unlike in the next request) takes the line out too.
      if (setting.email === 'digest') await queueForDigest(trx, delivery);
      deliveries.push(delivery);
    }
    return deliveries;
  }
}

/**
 * How one kind of notification reaches someone under their settings: shown in the app, mailed, or both;
 * null when neither, and nothing of it is written.
 */
export function deliveryOf(
  settings: NotificationSettings,
  kind: NotificationKind,
): KindSetting | null {
  const setting = settingFor(settings, kind);
  return setting.inApp || setting.email !== 'never' ? setting : null;
}

/**
 * How the one recipient of an action hears of it, from what the action's own read learned of them
 * (`ScreenedRecipients`): as `NotificationRecorder.record` decides it, for a write that makes the row
 * itself. Null when nobody is notified: their own action, or they hide from the actor, or their settings
 * turn the kind off.
 */
export function screenedDelivery(
  actorId: string,
  target: NotificationTarget,
  screened: ScreenedRecipients,
): KindSetting | null {
  const { recipientId, kind } = target;
  if (recipientId === actorId || screened.hiding.has(recipientId)) return null;
  return deliveryOf(settingsFrom(screened.settings.get(recipientId) ?? null), kind);
}

/**
 * Puts a notification in its recipient's digest queue, unless the queue already holds
 * `notificationDelivery.digestQueuePerAccount`. The recipient must have a state row (the digest sweep
 * finds accounts through it).
 */
async function queueForDigest(db: Kysely<Database>, delivery: Delivery): Promise<void> {
  const waiting = await db
    .selectFrom((eb) =>
      eb
        .selectFrom('notification_mail_queue')
        .select('id')
        .where('userId', '=', delivery.recipientId)
        .limit(notificationDelivery.digestQueuePerAccount)
        .as('waiting'),
    )
    .select((eb) => eb.fn.countAll<number | string>().as('count'))
    .executeTakeFirstOrThrow();
  if (toCount(waiting.count) >= notificationDelivery.digestQueuePerAccount) return;
  await db
    .insertInto('notification_mail_queue')
    .values({
      userId: delivery.recipientId,
      actorId: delivery.actorId,
      kind: delivery.kind,
      postId: delivery.postId,
      commentId: delivery.commentId,
      createdAt: new Date().toISOString(),
    })
    .execute();
}

/** Of `uids`, who already has a mention, reply or comment notification about the cause's text. */
async function alreadyNotified(
  trx: Transaction<Database>,
  cause: NotificationCause,
  uids: readonly string[],
): Promise<Set<string>> {
  if (uids.length === 0) return new Set();
  let query = trx
    .selectFrom('notifications')
    .select('recipientId')
    .where('recipientId', 'in', [...uids])
    .where('kind', 'in', ['mention', 'reply', 'comment']);
  query =
    cause.commentId !== null
      ? query.where('commentId', '=', cause.commentId)
      : query.where('postId', '=', cause.postId).where('commentId', 'is', null);
  const rows = await query.execute();
  return new Set(rows.map((row) => row.recipientId));
}

/** An undone like or follow: whose notification (and digest line) it was. */
export type Withdrawal =
  | { kind: 'like'; actorId: string; postId: string }
  | { kind: 'comment_like'; actorId: string; commentId: string }
  | { kind: 'follow'; actorId: string; recipientId: string };

/**
 * Removes the notification of a like or follow that was undone, in the transaction that undoes it, and its
 * line in a waiting digest. Returns the recipients whose notifications went.
 */
export async function withdrawNotifications(
  trx: Transaction<Database>,
  undone: Withdrawal,
): Promise<string[]> {
  let inApp = trx
    .deleteFrom('notifications')
    .where('kind', '=', undone.kind)
    .where('actorId', '=', undone.actorId);
  let queued = trx
    .deleteFrom('notification_mail_queue')
    .where('kind', '=', undone.kind)
    .where('actorId', '=', undone.actorId);
  switch (undone.kind) {
    case 'like':
      inApp = inApp.where('postId', '=', undone.postId);
      queued = queued.where('postId', '=', undone.postId);
      break;
    case 'comment_like':
      inApp = inApp.where('commentId', '=', undone.commentId);
      queued = queued.where('commentId', '=', undone.commentId);
      break;
    case 'follow':
      inApp = inApp.where('recipientId', '=', undone.recipientId);
      queued = queued.where('userId', '=', undone.recipientId);
      break;
  }
  const removed = await inApp.returning('recipientId').execute();
  await queued.execute();
  return [...new Set(removed.map((row) => row.recipientId))];
}

/** How many pending likes one transaction turns into notifications (ADR 0055). */
export const pendingLikesBatch = 500;

/**
 * Writes the notifications of up to `pendingLikesBatch` of `uid`'s pending likes, oldest first, in `trx`
 * (ADR 0055). Each has its like's time; none is written for a like between people who block each other
 * now. Either way the likes stop being pending. Returns how many likes were taken and the ids written.
 *
 * On PostgreSQL the likes are read with locks that skip what another transaction holds: a like being
 * undone or flushed elsewhere, a post or account being deleted (whose cascade would wait for this
 * transaction while it waits for theirs). What is skipped waits for a later read; nothing here waits.
 */
export async function writePendingLikes(
  trx: Transaction<Database>,
  uid: string,
): Promise<{ likes: number; ids: string[] }> {
  let pending = trx
    .selectFrom('post_likes as l')
    .select(['l.id', 'l.postId', 'l.userId', 'l.createdAt'])
    .select(notBlockedEitherWay(uid, 'l.userId').as('told'))
    .where('l.pendingRecipientId', '=', uid)
    .orderBy('l.id')
    .limit(pendingLikesBatch);
  if (trx.getExecutor().adapter instanceof PostgresAdapter) {
    pending = pending
      .innerJoin('posts as p', 'p.id', 'l.postId')
      .innerJoin('users as u', 'u.id', 'l.userId')
      .innerJoin('users as r', 'r.id', 'l.pendingRecipientId')
      .modifyEnd(sql`for update of l skip locked for key share of p, u, r skip locked`);
  }
  const likes = await pending.execute();
  if (likes.length === 0) return { likes: 0, ids: [] };
  await trx
    .updateTable('post_likes')
    .set({ pendingRecipientId: null })
    .where(
      'id',
      'in',
      likes.map((like) => like.id),
    )
    .execute();
  const told = likes.filter((like) => isTrue(like.told));
  if (told.length === 0) return { likes: likes.length, ids: [] };
  const rows = await trx
    .insertInto('notifications')
    .values(
      told.map((like) => {
        const cause = { actorId: like.userId, postId: toId(like.postId), commentId: null };
        return {
          recipientId: uid,
          ...cause,
          kind: 'like' as const,
          groupKey: groupKeyOf('like', cause),
          createdAt: like.createdAt,
        };
      }),
    )
    .returning('id')
    .execute();
  return { likes: likes.length, ids: rows.map((row) => toId(row.id)) };
}

/** Whether `uid` has likes whose notifications wait for their bell, compiled once: every bell read asks. */
function hasPendingLikesQuery(db: Kysely<Database>) {
  return prepare(db, (p: { uid: string }) =>
    db.selectFrom('post_likes').select('id').where('pendingRecipientId', '=', p.uid).limit(1),
  );
}

/**
 * Who has notifications about a post, or about a comment and its replies, that a deletion is about to remove (by cascade):
 * their bells change once it commits. At most `notificationDelivery.fanOut` of them.
 */
export async function recipientsAbout(
  trx: Transaction<Database>,
  about: { postId: string } | { commentId: string },
): Promise<string[]> {
  let query = trx.selectFrom('notifications').select('recipientId').distinct();
  if ('postId' in about) {
    query = query.where('postId', '=', about.postId);
  } else {
    // The comment and its replies, which go with it.
    const thread = trx
      .selectFrom('comments')
      .select('id')
      .where((eb) => eb.or([eb('id', '=', about.commentId), eb('parentId', '=', about.commentId)]));
    query = query.where('commentId', 'in', thread);
  }
  const rows = await query.limit(notificationDelivery.fanOut).execute();
  return rows.map((row) => row.recipientId);
}

/**
 * Whether the row `n` is the newest of its group: no newer row of its recipient is of its group. A row
 * without a group key stands alone and always is.
 * - A like's group is its post, and its probe reads the post's index (ordered by id after the post), for a
 *   newer like of it: likes are not in `notifications_group_idx` (ADR 0051).
 * - Any other group is probed in `notifications_group_idx`. The kind is a literal, so every plan of the
 *   probe knows that this index, which holds no likes, covers it.
 */
function isGroupHead(eb: ExpressionBuilder<Database & { n: Database['notifications'] }, 'n'>) {
  const newer = () =>
    eb
      .selectFrom('notifications as newer')
      .select('newer.id')
      .whereRef('newer.recipientId', '=', 'n.recipientId')
      .whereRef('newer.id', '>', 'n.id');
  const like = sql.lit('like');
  return eb.or([
    eb.and([
      eb('n.kind', '=', like),
      eb.not(
        eb.exists(newer().whereRef('newer.postId', '=', 'n.postId').where('newer.kind', '=', like)),
      ),
    ]),
    eb.and([
      eb('n.kind', '<>', like),
      eb.not(
        eb.exists(
          newer().whereRef('newer.groupKey', '=', 'n.groupKey').where('newer.kind', '<>', like),
        ),
      ),
    ]),
  ]);
}

/** The post of a like's group key (`groupKeyOf`), or undefined for a group of another kind. */
function likedPostOf(groupKey: string): string | undefined {
  const prefix = 'like:';
  return groupKey.startsWith(prefix) ? groupKey.slice(prefix.length) : undefined;
}

/**
 * Whether the row `n` is about nothing the moderators removed from its recipient's sight: a post or comment
 * removed (ADR 0021) stays visible to its author alone, so a mention in it, or a reply, drops out of others'
 * lists and counts.
 */
function aboutNothingRemoved(
  eb: ExpressionBuilder<Database & { n: Database['notifications'] }, 'n'>,
) {
  return eb.and([
    eb.not(
      eb.exists(
        eb
          .selectFrom('posts as removedPost')
          .select('removedPost.id')
          .whereRef('removedPost.id', '=', 'n.postId')
          .where('removedPost.removedAt', 'is not', null)
          .whereRef('removedPost.authorId', '!=', 'n.recipientId'),
      ),
    ),
    eb.not(
      eb.exists(
        eb
          .selectFrom('comments as removedComment')
          .select('removedComment.id')
          .whereRef('removedComment.id', '=', 'n.commentId')
          .where('removedComment.removedAt', 'is not', null)
          .whereRef('removedComment.authorId', '!=', 'n.recipientId'),
      ),
    ),
  ]);
}

/** The newest notification of a group (or one that stands alone), as a page of the list reads it. */
export interface NotificationHead {
  id: string;
  kind: NotificationKind;
  actorId: string;
  postId: string | null;
  commentId: string | null;
  groupKey: string | null;
  /** Moderation kinds: the report, appeal or audit entry. */
  subjectId: string | null;
  createdAt: string;
}

/** The people behind one group, newest first, and how many there are in all. */
export interface GroupActors {
  actorIds: string[];
  count: number;
}

/** A post or comment a notification is about, its text to quote from. */
export interface NotificationSubject {
  id: string;
  postId: string;
  body: string;
}

/** A person to mail: their address and the names to greet them by. */
export interface MailRecipient {
  uid: string;
  email: string;
  name: string;
  username: string | null;
  displayName: string | null;
  firstName: string | null;
  lastName: string | null;
}

/** A notification waiting in the digest queue. */
export interface QueuedNotification extends NotificationCause {
  id: string;
  kind: NotificationKind;
}

/** A notification row as the app reads it; null for a kind this version does not know. */
function queuedOf(row: {
  id: number | string | bigint;
  kind: string;
  actorId: string;
  postId: number | string | bigint | null;
  commentId: number | string | bigint | null;
}): QueuedNotification | null {
  if (!isKind(row.kind)) return null;
  return {
    id: toId(row.id),
    kind: row.kind,
    actorId: row.actorId,
    postId: toIdOrNull(row.postId),
    commentId: toIdOrNull(row.commentId),
  };
}

/** A stored unsubscribe token, and the address its mail went to. */
export interface UnsubscribeRecord {
  userId: string;
  kind: NotificationKind | null;
  used: boolean;
  email: string;
}

/**
 * A notification from the moderators, or to staff (ADR 0021). `actorId` is stored for grouping and cleanup
 * only: for the moderators' own kinds it is the recipient themself, and it is never shown.
 */
export interface ModerationNotice {
  kind: NotificationKind;
  recipientId: string;
  actorId: string;
  /** The report, appeal or audit entry it is about. */
  subjectId: string | null;
  postId?: string | null;
  commentId?: string | null;
}

/**
 * Writes moderation notifications in the transaction of the action they tell of. Settings decide the
 * switchable kinds; the mandatory ones are always written (and mailed by the service).
 */
export async function recordModerationNotifications(
  trx: Transaction<Database>,
  notices: readonly ModerationNotice[],
): Promise<Delivery[]> {
  if (notices.length === 0) return [];
  const stored = await trx
    .selectFrom('notification_states')
    .select(['userId', 'settings'])
    .where('userId', 'in', [...new Set(notices.map((notice) => notice.recipientId))])
    .execute();
  const settingsOf = new Map(stored.map((row) => [row.userId, settingsFrom(row.settings)]));
  const createdAt = new Date().toISOString();
  const deliveries: Delivery[] = [];
  for (const notice of notices) {
    const setting = settingFor(
      settingsOf.get(notice.recipientId) ?? settingsFrom(null),
      notice.kind,
    );
    if (!setting.inApp) continue;
    await writePendingLikes(trx, notice.recipientId);
    const row = await trx
      .insertInto('notifications')
      .values({
        recipientId: notice.recipientId,
        actorId: notice.actorId,
        kind: notice.kind,
        postId: notice.postId ?? null,
        commentId: notice.commentId ?? null,
        groupKey: null,
        subjectId: notice.subjectId,
        createdAt,
      })
      .returning('id')
      .executeTakeFirstOrThrow();
    deliveries.push({
      id: toId(row.id),
      kind: notice.kind,
      recipientId: notice.recipientId,
      actorId: notice.actorId,
      postId: notice.postId ?? null,
      commentId: notice.commentId ?? null,
      email: 'never',
    });
  }
  return deliveries;
}

/** The stored facts a moderation notification is told from. */
export interface ModerationSubjectRows {
  actions: Map<
    string,
    {
      reason: string | null;
      subjectKind: string | null;
      excerpt: string | null;
      details: string | null;
    }
  >;
  reports: Map<string, { outcome: string | null; targetKind: string; snapshot: string }>;
  appeals: Map<string, { status: string; decisionReason: string | null; text: string }>;
}

/** The only place that reads and writes notifications, their states, the digest queue and unsubscribe tokens. */
/**
 * The count of a bell, compiled once: every notification a write makes republishes its recipient's
 * unread state, so this runs with most likes, comments and follows.
 */
function unreadGroupsQuery(db: Kysely<Database>) {
  return prepare(db, (p: { uid: string; lastReadId: string; max: number }) =>
    db
      .selectFrom(
        db
          .selectFrom('notifications as n')
          .select('n.id')
          .where('n.recipientId', '=', p.uid)
          .where('n.id', '>', p.lastReadId)
          .where(isGroupHead)
          .where(aboutNothingRemoved)
          .limit(p.max)
          .as('unread'),
      )
      .select((eb) => eb.fn.countAll<number | string>().as('count')),
  );
}

/**
 * A bell's two marks in one statement, compiled once: the read marker and the newest notification's id.
 * The bell is republished with most notifying writes, so it costs one statement, not two (ADR 0029).
 */
function bellMarksQuery(db: Kysely<Database>) {
  return prepare(db, (p: { uid: string }) =>
    db.selectNoFrom((eb) => [
      eb
        .selectFrom('notification_states')
        .select('notification_states.lastReadId')
        .where('notification_states.userId', '=', p.uid)
        .as('lastReadId'),
      eb
        .selectFrom('notifications')
        .select('notifications.id')
        .where('notifications.recipientId', '=', p.uid)
        .orderBy('notifications.id', 'desc')
        .limit(1)
        .as('newestId'),
    ]),
  );
}

export class NotificationsRepository {
  private readonly unreadGroupsQuery: ReturnType<typeof unreadGroupsQuery>;
  private readonly bellMarksQuery: ReturnType<typeof bellMarksQuery>;
  private readonly hasPendingLikesQuery: ReturnType<typeof hasPendingLikesQuery>;

  constructor(private readonly db: Kysely<Database>) {
    this.unreadGroupsQuery = unreadGroupsQuery(db);
    this.bellMarksQuery = bellMarksQuery(db);
    this.hasPendingLikesQuery = hasPendingLikesQuery(db);
  }

  /**
   * Writes the notifications of `uid`'s pending likes (ADR 0055), a batch per transaction, oldest first,
   * up to `limits.notifications.keepPerAccount` of them (more would be trimmed at once): the rest wait for
   * the next read. Most reads find none, in one probe of an index that holds only pending likes. Returns
   * the ids written.
   */
  async writePendingLikes(uid: string): Promise<string[]> {
    const written: string[] = [];
    for (let taken = 0; taken < limits.notifications.keepPerAccount; taken += pendingLikesBatch) {
      if (!(await this.hasPendingLikesQuery.executeTakeFirst({ uid }))) break;
      const batch = await this.db.transaction().execute((trx) => writePendingLikes(trx, uid));
      written.push(...batch.ids);
      if (batch.likes < pendingLikesBatch) break;
    }
    return written;
  }

  /**
   * A page of `uid`'s notifications, one row per group: a row is its group's head when no newer row shares
   * its group key (an index probe each), so the page is a keyset walk newest first, below `before`.
   */
  async heads(
    uid: string,
    page: { tab: NotificationTab; before?: string; take: number },
  ): Promise<NotificationHead[]> {
    let query = this.db
      .selectFrom('notifications as n')
      .select([
        'n.id',
        'n.kind',
        'n.actorId',
        'n.postId',
        'n.commentId',
        'n.groupKey',
        'n.subjectId',
        'n.createdAt',
      ])
      .where('n.recipientId', '=', uid)
      .where(isGroupHead)
      .where(aboutNothingRemoved);
    // A literal: even a plan made before the values are bound knows that the index of mentions covers it.
    if (page.tab === 'mentions') query = query.where('n.kind', '=', sql.lit('mention'));
    if (page.before !== undefined) query = query.where('n.id', '<', page.before);
    const rows = await query.orderBy('n.id', 'desc').limit(page.take).execute();
    return rows.flatMap((row) => {
      const queued = queuedOf(row);
      return queued
        ? [
            {
              ...queued,
              groupKey: row.groupKey,
              subjectId: row.subjectId,
              createdAt: toIsoString(row.createdAt),
            },
          ]
        : [];
    });
  }

  /**
   * The newest `limits.notifications.actorsShown` people of each group and how many there are: one
   * bounded range per group, unioned, and one count over the groups of likes and one over the others
   * (bounded by pruning).
   */
  async groupActors(uid: string, groupKeys: readonly string[]): Promise<Map<string, GroupActors>> {
    const result = new Map<string, GroupActors>();
    const like = sql.lit('like');
    const groups = groupKeys.map((groupKey) => ({ groupKey, postId: likedPostOf(groupKey) }));
    const likedPosts = groups.flatMap(({ postId }) => (postId === undefined ? [] : [postId]));
    const otherKeys = groups.flatMap(({ groupKey, postId }) =>
      postId === undefined ? [groupKey] : [],
    );
    // A like's group through the post's index, any other through the group index (ADR 0051).
    const ofGroup = ({ groupKey, postId }: (typeof groups)[number]) => {
      const rows = this.db
        .selectFrom('notifications')
        .select(['groupKey', 'actorId', 'id'])
        .where('recipientId', '=', uid);
      return postId === undefined
        ? rows.where('groupKey', '=', groupKey).where('kind', '<>', like)
        : rows.where('postId', '=', postId).where('kind', '=', like);
    };
    const [first, ...rest] = groups.map((group) =>
      this.db
        .selectFrom(
          ofGroup(group).orderBy('id', 'desc').limit(limits.notifications.actorsShown).as('newest'),
        )
        .select(['newest.groupKey', 'newest.actorId', 'newest.id']),
    );
    if (!first) return result;
    const countsOf = () =>
      this.db
        .selectFrom('notifications')
        .select((eb) => [
          'groupKey',
          eb.fn.count<number | string>('actorId').distinct().as('count'),
        ])
        .where('recipientId', '=', uid)
        .groupBy('groupKey');
    const [newest, likeCounts, otherCounts] = await Promise.all([
      rest.reduce((union, branch) => union.unionAll(branch), first).execute(),
      likedPosts.length === 0
        ? []
        : countsOf().where('postId', 'in', likedPosts).where('kind', '=', like).execute(),
      otherKeys.length === 0
        ? []
        : countsOf().where('groupKey', 'in', otherKeys).where('kind', '<>', like).execute(),
    ]);
    const counts = [...likeCounts, ...otherCounts];
    for (const row of counts) {
      if (row.groupKey !== null)
        result.set(row.groupKey, { actorIds: [], count: toCount(row.count) });
    }
    const ordered = [...newest].sort((a, b) => (BigInt(b.id) > BigInt(a.id) ? 1 : -1));
    for (const row of ordered) {
      const group = row.groupKey === null ? undefined : result.get(row.groupKey);
      if (group && !group.actorIds.includes(row.actorId)) group.actorIds.push(row.actorId);
    }
    return result;
  }

  /** People as authors (name, avatar, whether active), in one query. */
  async authors(uids: readonly string[]): Promise<AuthorColumns[]> {
    if (uids.length === 0) return [];
    return this.db
      .selectFrom('users as author')
      .select([...authorSelection])
      .select((eb) => authorAvatarRenditions(eb))
      .where('author.id', 'in', [...uids])
      .execute();
  }

  /** The texts of the posts and comments a page of notifications is about, in two queries. */
  async subjects(
    postIds: readonly string[],
    commentIds: readonly string[],
  ): Promise<{ posts: Map<string, string>; comments: Map<string, NotificationSubject> }> {
    const [posts, comments] = await Promise.all([
      postIds.length === 0
        ? []
        : this.db
            .selectFrom('posts')
            .select(['id', 'body'])
            .where('id', 'in', [...postIds])
            .execute(),
      commentIds.length === 0
        ? []
        : this.db
            .selectFrom('comments')
            .select(['id', 'postId', 'body'])
            .where('id', 'in', [...commentIds])
            .execute(),
    ]);
    return {
      posts: new Map(posts.map((row) => [toId(row.id), row.body])),
      comments: new Map(
        comments.map((row) => [
          toId(row.id),
          { id: toId(row.id), postId: toId(row.postId), body: row.body },
        ]),
      ),
    };
  }

  /** The audit entries, reports and appeals a page's moderation notifications name, in three queries. */
  async moderationSubjects(ids: {
    actions: readonly string[];
    reports: readonly string[];
    appeals: readonly string[];
  }): Promise<ModerationSubjectRows> {
    const numeric = (list: readonly string[]) =>
      [...new Set(list)].filter((id) => /^\d{1,18}$/.test(id));
    const [actions, reports, appeals] = await Promise.all([
      numeric(ids.actions).length === 0
        ? []
        : this.db
            .selectFrom('moderation_actions')
            .select(['id', 'reason', 'subjectKind', 'excerpt', 'details'])
            .where('id', 'in', numeric(ids.actions))
            .execute(),
      numeric(ids.reports).length === 0
        ? []
        : this.db
            .selectFrom('reports')
            .select(['id', 'outcome', 'targetKind', 'snapshot'])
            .where('id', 'in', numeric(ids.reports))
            .execute(),
      numeric(ids.appeals).length === 0
        ? []
        : this.db
            .selectFrom('appeals')
            .select(['id', 'status', 'decisionReason', 'text'])
            .where('id', 'in', numeric(ids.appeals))
            .execute(),
    ]);
    return {
      actions: new Map(actions.map((row) => [toId(row.id), row])),
      reports: new Map(reports.map((row) => [toId(row.id), row])),
      appeals: new Map(appeals.map((row) => [toId(row.id), row])),
    };
  }

  /** Everything up to this id is read ('0' when nothing ever was). */
  async lastReadId(uid: string): Promise<string> {
    const row = await this.db
      .selectFrom('notification_states')
      .select('lastReadId')
      .where('userId', '=', uid)
      .executeTakeFirst();
    return row ? toId(row.lastReadId) : '0';
  }

  /** The newest notification's id, or null when there is none. */
  async newestId(uid: string): Promise<string | null> {
    const row = await this.db
      .selectFrom('notifications')
      .select('id')
      .where('recipientId', '=', uid)
      .orderBy('id', 'desc')
      .limit(1)
      .executeTakeFirst();
    return row ? toId(row.id) : null;
  }

  /** The read marker ('0' when nothing ever was read) and the newest notification's id (null: none). */
  async bellMarks(uid: string): Promise<{ lastReadId: string; newestId: string | null }> {
    const row = await this.bellMarksQuery.executeTakeFirst({ uid });
    const lastReadId = row?.lastReadId ?? null;
    const newestId = row?.newestId ?? null;
    return {
      lastReadId: lastReadId === null ? '0' : toId(lastReadId),
      newestId: newestId === null ? null : toId(newestId),
    };
  }

  /** How many groups have news past the read marker, counted up to `max` (a LIMITed walk of the index). */
  async unreadGroups(uid: string, lastReadId: string, max: number): Promise<number> {
    const row = await this.unreadGroupsQuery.executeTakeFirst({ uid, lastReadId, max });
    return toCount(row?.count ?? 0);
  }

  /**
   * Moves the read marker to `upTo` (at most the newest notification; everything when absent). It never
   * moves back: a tab that marks an older page read after another marked a newer one changes nothing.
   */
  async markRead(uid: string, upTo: string | undefined): Promise<void> {
    const newest = await this.newestId(uid);
    if (newest === null) return;
    const target = upTo === undefined || BigInt(upTo) > BigInt(newest) ? newest : upTo;
    await this.db
      .insertInto('notification_states')
      .values({ userId: uid, lastReadId: target })
      .onConflict((oc) =>
        oc.column('userId').doUpdateSet((eb) => ({
          lastReadId: eb
            .case()
            .when(eb.ref('excluded.lastReadId'), '>', eb.ref('notification_states.lastReadId'))
            .then(eb.ref('excluded.lastReadId'))
            .else(eb.ref('notification_states.lastReadId'))
            .end(),
        })),
      )
      .execute();
  }

  async settings(uid: string): Promise<NotificationSettings> {
    const row = await this.db
      .selectFrom('notification_states')
      .select('settings')
      .where('userId', '=', uid)
      .executeTakeFirst();
    return settingsFrom(row?.settings ?? null);
  }

  async saveSettings(uid: string, settings: NotificationSettings): Promise<void> {
    const json = JSON.stringify(settings);
    await this.db
      .insertInto('notification_states')
      .values({ userId: uid, settings: json })
      .onConflict((oc) => oc.column('userId').doUpdateSet({ settings: json }))
      .execute();
  }

  /** Makes sure `uid` has a state row, for the conditional updates that claim mail. */
  private async ensureState(uid: string): Promise<void> {
    await this.db
      .insertInto('notification_states')
      .values({ userId: uid })
      .onConflict((oc) => oc.column('userId').doNothing())
      .execute();
  }

  /**
   * Takes one of `uid`'s immediate mails for the hour-long window that holds `now`, or starts a new window;
   * false when the window's `max` are spent. Each step is one conditional UPDATE, so instances sharing the
   * database never hand out more than `max`.
   */
  async claimImmediateMail(
    uid: string,
    now: Date,
    windowMs: number,
    max: number,
  ): Promise<boolean> {
    await this.ensureState(uid);
    const windowOpenedAfter = new Date(now.getTime() - windowMs).toISOString();
    const fresh = await this.db
      .updateTable('notification_states')
      .set({ mailWindowStart: now.toISOString(), mailWindowCount: 1 })
      .where('userId', '=', uid)
      .where((eb) =>
        eb.or([eb('mailWindowStart', 'is', null), eb('mailWindowStart', '<=', windowOpenedAfter)]),
      )
      .executeTakeFirst();
    if (fresh.numUpdatedRows > 0n) return true;
    const taken = await this.db
      .updateTable('notification_states')
      .set((eb) => ({ mailWindowCount: eb('mailWindowCount', '+', 1) }))
      .where('userId', '=', uid)
      .where('mailWindowStart', '>', windowOpenedAfter)
      .where('mailWindowCount', '<', max)
      .executeTakeFirst();
    return taken.numUpdatedRows > 0n;
  }

  /** Queues an immediate mail past its hourly allowance for the recipient's digest instead. */
  async queueForDigest(delivery: Delivery): Promise<void> {
    await this.ensureState(delivery.recipientId);
    await queueForDigest(this.db, delivery);
  }

  /** Accounts with a digest waiting whose last digest is older than `sentBefore` (or who never had one). */
  async dueDigests(sentBefore: Date, take: number): Promise<string[]> {
    const rows = await this.db
      .selectFrom('notification_mail_queue as q')
      .innerJoin('notification_states as s', 's.userId', 'q.userId')
      .select('q.userId')
      .distinct()
      .where((eb) =>
        eb.or([
          eb('s.digestSentAt', 'is', null),
          eb('s.digestSentAt', '<', sentBefore.toISOString()),
        ]),
      )
      .limit(take)
      .execute();
    return rows.map((row) => row.userId);
  }

  /**
   * Claims `uid`'s digest: one conditional UPDATE of its "sent at", so of several instances sweeping at
   * once exactly one sends it. False when another instance (or an earlier sweep) already has.
   */
  async claimDigest(uid: string, now: Date, sentBefore: Date): Promise<boolean> {
    const result = await this.db
      .updateTable('notification_states')
      .set({ digestSentAt: now.toISOString() })
      .where('userId', '=', uid)
      .where((eb) =>
        eb.or([eb('digestSentAt', 'is', null), eb('digestSentAt', '<', sentBefore.toISOString())]),
      )
      .executeTakeFirst();
    return result.numUpdatedRows > 0n;
  }

  /** The newest `take` notifications waiting in `uid`'s digest, and how many wait in all. */
  async digestQueue(
    uid: string,
    take: number,
  ): Promise<{ items: QueuedNotification[]; total: number }> {
    const [rows, total] = await Promise.all([
      this.db
        .selectFrom('notification_mail_queue')
        .select(['id', 'actorId', 'kind', 'postId', 'commentId'])
        .where('userId', '=', uid)
        .orderBy('id', 'desc')
        .limit(take)
        .execute(),
      this.db
        .selectFrom('notification_mail_queue')
        .select((eb) => eb.fn.countAll<number | string>().as('count'))
        .where('userId', '=', uid)
        .executeTakeFirstOrThrow(),
    ]);
    return {
      items: rows.flatMap((row) => {
        const queued = queuedOf(row);
        return queued ? [queued] : [];
      }),
      total: toCount(total.count),
    };
  }

  /** Empties `uid`'s digest queue up to `throughId`: what the digest just sent or summed up. */
  async clearDigest(uid: string, throughId: string): Promise<void> {
    await this.db
      .deleteFrom('notification_mail_queue')
      .where('userId', '=', uid)
      .where('id', '<=', throughId)
      .execute();
  }

  /** Addresses and names of the people to mail, in one query. */
  async mailRecipients(uids: readonly string[]): Promise<Map<string, MailRecipient>> {
    if (uids.length === 0) return new Map();
    const rows = await this.db
      .selectFrom('users')
      .select(['id', 'email', 'name', 'username', 'displayName', 'firstName', 'lastName'])
      .where('id', 'in', [...uids])
      .execute();
    return new Map(rows.map(({ id, ...row }) => [id, { uid: id, ...row }]));
  }

  async createUnsubscribeToken(
    tokenHash: string,
    uid: string,
    kind: NotificationKind | null,
  ): Promise<void> {
    await this.db
      .insertInto('unsubscribe_tokens')
      .values({ tokenHash, userId: uid, kind, createdAt: new Date().toISOString() })
      .execute();
  }

  async findUnsubscribeToken(tokenHash: string): Promise<UnsubscribeRecord | undefined> {
    const row = await this.db
      .selectFrom('unsubscribe_tokens as t')
      .innerJoin('users', 'users.id', 't.userId')
      .select(['t.userId', 't.kind', 't.usedAt', 'users.email'])
      .where('t.tokenHash', '=', tokenHash)
      .executeTakeFirst();
    if (!row) return undefined;
    return {
      userId: row.userId,
      kind: row.kind !== null && isKind(row.kind) ? row.kind : null,
      used: row.usedAt !== null,
      email: row.email,
    };
  }

  /**
   * Uses a token and applies `change` to its account's settings, in one transaction. The token is taken
   * by a conditional UPDATE, so of two clicks at once only one succeeds. False when it was already used.
   */
  useUnsubscribeToken(
    tokenHash: string,
    uid: string,
    change: (settings: NotificationSettings) => NotificationSettings,
  ): Promise<boolean> {
    return this.db.transaction().execute(async (trx) => {
      const taken = await trx
        .updateTable('unsubscribe_tokens')
        .set({ usedAt: new Date().toISOString() })
        .where('tokenHash', '=', tokenHash)
        .where('usedAt', 'is', null)
        .executeTakeFirst();
      if (taken.numUpdatedRows === 0n) return false;
      const row = await trx
        .selectFrom('notification_states')
        .select('settings')
        .where('userId', '=', uid)
        .executeTakeFirst();
      const json = JSON.stringify(change(settingsFrom(row?.settings ?? null)));
      await trx
        .insertInto('notification_states')
        .values({ userId: uid, settings: json })
        .onConflict((oc) => oc.column('userId').doUpdateSet({ settings: json }))
        .execute();
      return true;
    });
  }

  /** Keeps `uid`'s newest `keep` notifications and deletes the rest. */
  async pruneAccount(uid: string, keep: number): Promise<void> {
    const boundary = await this.db
      .selectFrom('notifications')
      .select('id')
      .where('recipientId', '=', uid)
      .orderBy('id', 'desc')
      .limit(1)
      .offset(keep)
      .executeTakeFirst();
    if (!boundary) return;
    await this.db
      .deleteFrom('notifications')
      .where('recipientId', '=', uid)
      .where('id', '<=', boundary.id)
      .execute();
  }

  /**
   * Deletes up to `batch` notifications, digest lines and unsubscribe tokens made before `before`, oldest
   * first (ids grow with time, so the walk stops at the first young row). Returns how many notifications
   * went, so the caller knows whether to go on.
   */
  async pruneOlderThan(before: Date, batch: number): Promise<number> {
    const cutoff = before.toISOString();
    const oldest = (table: 'notifications' | 'notification_mail_queue') =>
      this.db
        .selectFrom(table)
        .select('id')
        .where('createdAt', '<', cutoff)
        .orderBy('id', 'asc')
        .limit(batch);
    const deleted = await this.db
      .deleteFrom('notifications')
      .where('id', 'in', oldest('notifications'))
      .executeTakeFirst();
    await this.db
      .deleteFrom('notification_mail_queue')
      .where('id', 'in', oldest('notification_mail_queue'))
      .execute();
    await this.db
      .deleteFrom('unsubscribe_tokens')
      .where(
        'tokenHash',
        'in',
        this.db
          .selectFrom('unsubscribe_tokens')
          .select('tokenHash')
          .where('createdAt', '<', cutoff)
          .limit(batch),
      )
      .execute();
    return toCount(deleted.numDeletedRows);
  }
}
