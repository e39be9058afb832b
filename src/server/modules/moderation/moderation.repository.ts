import type { Kysely, Transaction } from 'kysely';
import type { Database } from '../../db/schema.js';
import { toCount, toId, toIdOrNull, toIsoString, toIsoStringOrNull } from '../../db/values.js';
import {
  recordModerationNotifications,
  type Delivery,
  type ModerationNotice,
} from '../notifications/notifications.repository.js';
import {
  authorAvatarRenditions,
  authorSelection,
  type AuthorColumns,
} from '../users/authors.repository.js';
import type { AuditEntry, AuditLogRepository } from './audit-log.repository.js';

/** An account as moderation reads it. */
export interface ModerationUser {
  id: string;
  email: string;
  name: string;
  username: string | null;
  displayName: string | null;
  firstName: string | null;
  lastName: string | null;
  role: string | null;
  active: boolean;
  createdAt: string;
  bio: string | null;
  avatarMediaId: string | null;
  coverMediaId: string | null;
  suspendedAt: string | null;
  suspendedUntil: string | null;
  suspensionReason: string | null;
  suspensionActionId: string | null;
}

/** A post or comment as it is now, for a report's snapshot and the queue's "state now". */
export interface ContentRow {
  kind: 'post' | 'comment';
  id: string;
  postId: string | null;
  authorId: string;
  body: string;
  createdAt: string;
  removedAt: string | null;
  removalReason: string | null;
  /** Each image's stored renditions (JSON) and alt text, in order. */
  images: { renditions: string; alt: string | null }[];
}

export interface ReportRow {
  id: string;
  reporterId: string | null;
  targetKind: string;
  targetId: string;
  targetUserId: string | null;
  reason: string;
  ruleId: string | null;
  comment: string | null;
  snapshot: string;
  status: string;
  outcome: string | null;
  resolvedAt: string | null;
  createdAt: string;
}

export interface AppealRow {
  id: string;
  userId: string;
  actionId: string;
  text: string;
  status: string;
  decidedBy: string | null;
  decidedByName: string | null;
  decidedAt: string | null;
  decisionReason: string | null;
  createdAt: string;
}

export interface HistoryRow {
  id: string;
  action: string;
  reason: string | null;
  actorName: string;
  createdAt: string;
}

const userColumns = [
  'users.id',
  'users.email',
  'users.name',
  'users.username',
  'users.displayName',
  'users.firstName',
  'users.lastName',
  'users.role',
  'users.active',
  'users.createdAt',
  'users.bio',
  'users.avatarMediaId',
  'users.coverMediaId',
  'users.suspendedAt',
  'users.suspendedUntil',
  'users.suspensionReason',
  'users.suspensionActionId',
] as const;

function userOf(row: {
  id: string;
  email: string;
  name: string;
  username: string | null;
  displayName: string | null;
  firstName: string | null;
  lastName: string | null;
  role: string | null;
  active: boolean | number | null;
  createdAt: Date | string;
  bio: string | null;
  avatarMediaId: string | null;
  coverMediaId: string | null;
  suspendedAt: Date | string | null;
  suspendedUntil: Date | string | null;
  suspensionReason: string | null;
  suspensionActionId: number | string | null;
}): ModerationUser {
  return {
    ...row,
    active: row.active === true || row.active === 1,
    createdAt: toIsoString(row.createdAt),
    suspendedAt: toIsoStringOrNull(row.suspendedAt),
    suspendedUntil: toIsoStringOrNull(row.suspendedUntil),
    suspensionActionId: toIdOrNull(row.suspensionActionId),
  };
}

function reportOf(row: {
  id: number | string;
  reporterId: string | null;
  targetKind: string;
  targetId: string;
  targetUserId: string | null;
  reason: string;
  ruleId: number | string | null;
  comment: string | null;
  snapshot: string;
  status: string;
  outcome: string | null;
  resolvedAt: Date | string | null;
  createdAt: Date | string;
}): ReportRow {
  return {
    ...row,
    id: toId(row.id),
    ruleId: toIdOrNull(row.ruleId),
    resolvedAt: toIsoStringOrNull(row.resolvedAt),
    createdAt: toIsoString(row.createdAt),
  };
}

const reportColumns = [
  'reports.id',
  'reports.reporterId',
  'reports.targetKind',
  'reports.targetId',
  'reports.targetUserId',
  'reports.reason',
  'reports.ruleId',
  'reports.comment',
  'reports.snapshot',
  'reports.status',
  'reports.outcome',
  'reports.resolvedAt',
  'reports.createdAt',
] as const;

/**
 * The writes of one moderation action, inside one transaction: the change, its audit entry and the
 * notifications it sends all commit together or not at all (ADR 0021).
 */
export class ModerationWrite {
  readonly deliveries: Delivery[] = [];

  constructor(
    private readonly trx: Transaction<Database>,
    private readonly audit: AuditLogRepository,
  ) {}

  /** Records the audit entry; answers its id. */
  record(entry: AuditEntry): Promise<string> {
    return this.audit.record(entry, this.trx);
  }

  async notify(notices: readonly ModerationNotice[]): Promise<void> {
    this.deliveries.push(...(await recordModerationNotifications(this.trx, notices)));
  }

  /** Sets or clears a post's or comment's removal; false when it is gone or already in that state. */
  async setRemoval(
    kind: 'post' | 'comment',
    id: string,
    removal: { at: string; reason: string } | null,
  ): Promise<boolean> {
    const table = kind === 'post' ? 'posts' : 'comments';
    const result = await this.trx
      .updateTable(table)
      .set({ removedAt: removal?.at ?? null, removalReason: removal?.reason ?? null })
      .where('id', '=', id)
      .where('removedAt', removal ? 'is' : 'is not', null)
      .executeTakeFirst();
    return result.numUpdatedRows > 0n;
  }

  /** Starts (or replaces) a suspension. */
  async suspend(
    uid: string,
    suspension: { since: string; until: string | null; reason: string; actionId: string },
  ): Promise<void> {
    await this.trx
      .updateTable('users')
      .set({
        suspendedAt: suspension.since,
        suspendedUntil: suspension.until,
        suspensionReason: suspension.reason,
        suspensionActionId: suspension.actionId,
      })
      .where('id', '=', uid)
      .execute();
  }

  /** Ends a suspension that holds now; false when none does (lifted or expired meanwhile). */
  async lift(uid: string, now: string): Promise<boolean> {
    const result = await this.trx
      .updateTable('users')
      .set({
        suspendedAt: null,
        suspendedUntil: null,
        suspensionReason: null,
        suspensionActionId: null,
      })
      .where('id', '=', uid)
      .where('suspendedAt', 'is not', null)
      .where((eb) => eb.or([eb('suspendedUntil', 'is', null), eb('suspendedUntil', '>', now)]))
      .executeTakeFirst();
    return result.numUpdatedRows > 0n;
  }

  /** Closes every open report of a target with one outcome; answers the reports closed. */
  async closeReports(
    target: { kind: string; id: string },
    resolution: { outcome: string; by: string | null; at: string; actionId: string },
  ): Promise<{ id: string; reporterId: string | null }[]> {
    const rows = await this.trx
      .updateTable('reports')
      .set({
        status: 'resolved',
        outcome: resolution.outcome,
        resolvedBy: resolution.by,
        resolvedAt: resolution.at,
        actionId: resolution.actionId,
      })
      .where('targetKind', '=', target.kind)
      .where('targetId', '=', target.id)
      .where('status', '=', 'open')
      .returning(['id', 'reporterId'])
      .execute();
    return rows.map((row) => ({ id: toId(row.id), reporterId: row.reporterId }));
  }

  /** Decides a pending appeal; false when it was decided meanwhile. */
  async decideAppeal(
    appealId: string,
    decision: { status: 'accepted' | 'rejected'; by: string | null; at: string; reason: string },
  ): Promise<boolean> {
    const result = await this.trx
      .updateTable('appeals')
      .set({
        status: decision.status,
        decidedBy: decision.by,
        decidedAt: decision.at,
        decisionReason: decision.reason,
      })
      .where('id', '=', appealId)
      .where('status', '=', 'pending')
      .executeTakeFirst();
    return result.numUpdatedRows > 0n;
  }
}

/** The only place that reads and writes reports, appeals, removals and suspensions. */
export class ModerationRepository {
  constructor(
    private readonly db: Kysely<Database>,
    private readonly audit: AuditLogRepository,
  ) {}

  /** Runs one action's writes in a transaction; answers the work's result and the notifications made. */
  async write<T>(
    work: (write: ModerationWrite) => Promise<T>,
  ): Promise<{ result: T; deliveries: Delivery[] }> {
    return this.db.transaction().execute(async (trx) => {
      const write = new ModerationWrite(trx, this.audit);
      const result = await work(write);
      return { result, deliveries: write.deliveries };
    });
  }

  async findUser(uid: string): Promise<ModerationUser | null> {
    const row = await this.db
      .selectFrom('users')
      .select([...userColumns])
      .where('users.id', '=', uid)
      .executeTakeFirst();
    return row ? userOf(row) : null;
  }

  async findUserByUsername(username: string): Promise<ModerationUser | null> {
    const row = await this.db
      .selectFrom('users')
      .select([...userColumns])
      .where('users.username', '=', username.toLowerCase())
      .executeTakeFirst();
    return row ? userOf(row) : null;
  }

  /** Accounts as authors (name, avatar, active), in one query. */
  async authors(uids: readonly string[]): Promise<AuthorColumns[]> {
    if (uids.length === 0) return [];
    return this.db
      .selectFrom('users as author')
      .select([...authorSelection])
      .select((eb) => authorAvatarRenditions(eb))
      .where('author.id', 'in', [...new Set(uids)])
      .execute();
  }

  /** Staff accounts (active moderators and administrators), at most `max`. */
  async staff(max: number): Promise<string[]> {
    const rows = await this.db
      .selectFrom('users')
      .select('id')
      .where('role', 'in', ['moderator', 'admin'])
      .where('active', '=', true)
      .orderBy('id')
      .limit(max)
      .execute();
    return rows.map((row) => row.id);
  }

  /** A rule's text, or null when there is no such rule. */
  async ruleText(ruleId: string): Promise<string | null> {
    const row = await this.db
      .selectFrom('instance_rules')
      .select('text')
      .where('id', '=', ruleId)
      .executeTakeFirst();
    return row?.text ?? null;
  }

  /** A media row's renditions (JSON), for a profile's avatar and cover. */
  async mediaRenditions(
    ids: readonly string[],
  ): Promise<{ renditions: string; alt: string | null }[]> {
    if (ids.length === 0) return [];
    return this.db
      .selectFrom('media')
      .select(['renditions', 'alt'])
      .where('id', 'in', [...ids])
      .execute();
  }

  /** A post or comment as it is now, with its images; null when it does not exist. */
  async content(kind: 'post' | 'comment', id: string): Promise<ContentRow | null> {
    if (kind === 'post') {
      const row = await this.db
        .selectFrom('posts')
        .select(['id', 'authorId', 'body', 'createdAt', 'removedAt', 'removalReason'])
        .where('id', '=', id)
        .executeTakeFirst();
      if (!row) return null;
      const images = await this.db
        .selectFrom('post_media')
        .innerJoin('media', 'media.id', 'post_media.mediaId')
        .select(['media.renditions', 'media.alt'])
        .where('post_media.postId', '=', id)
        .orderBy('post_media.position')
        .execute();
      return {
        kind,
        id: toId(row.id),
        postId: null,
        authorId: row.authorId,
        body: row.body,
        createdAt: toIsoString(row.createdAt),
        removedAt: toIsoStringOrNull(row.removedAt),
        removalReason: row.removalReason,
        images,
      };
    }
    const row = await this.db
      .selectFrom('comments')
      .select(['id', 'postId', 'authorId', 'body', 'createdAt', 'removedAt', 'removalReason'])
      .where('id', '=', id)
      .executeTakeFirst();
    if (!row) return null;
    return {
      kind,
      id: toId(row.id),
      postId: toId(row.postId),
      authorId: row.authorId,
      body: row.body,
      createdAt: toIsoString(row.createdAt),
      removedAt: toIsoStringOrNull(row.removedAt),
      removalReason: row.removalReason,
      images: [],
    };
  }

  /** Whether `reporterId` has an open report of the target. */
  async hasOpenReport(reporterId: string, kind: string, targetId: string): Promise<boolean> {
    const row = await this.db
      .selectFrom('reports')
      .select('id')
      .where('reporterId', '=', reporterId)
      .where('targetKind', '=', kind)
      .where('targetId', '=', targetId)
      .where('status', '=', 'open')
      .executeTakeFirst();
    return row !== undefined;
  }

  /**
   * Stores a report; null when the reporter already has an open one of the target (the partial unique
   * index decides a race between two requests).
   */
  async insertReport(report: {
    reporterId: string;
    targetKind: string;
    targetId: string;
    targetUserId: string;
    reason: string;
    ruleId: string | null;
    comment: string | null;
    snapshot: string;
    createdAt: string;
  }): Promise<ReportRow | null> {
    try {
      const row = await this.db
        .insertInto('reports')
        .values({ ...report, status: 'open', outcome: null })
        .returning([...reportColumns])
        .executeTakeFirstOrThrow();
      return reportOf(row);
    } catch (error) {
      if (await this.hasOpenReport(report.reporterId, report.targetKind, report.targetId)) {
        return null;
      }
      throw error;
    }
  }

  async findReport(id: string): Promise<ReportRow | null> {
    const row = await this.db
      .selectFrom('reports')
      .select([...reportColumns])
      .where('id', '=', id)
      .executeTakeFirst();
    return row ? reportOf(row) : null;
  }

  /** A page of one reporter's reports, newest first. */
  async reportsBy(
    reporterId: string,
    before: string | undefined,
    take: number,
  ): Promise<ReportRow[]> {
    let query = this.db
      .selectFrom('reports')
      .select([...reportColumns])
      .where('reporterId', '=', reporterId);
    if (before !== undefined) query = query.where('id', '<', before);
    const rows = await query.orderBy('id', 'desc').limit(take).execute();
    return rows.map(reportOf);
  }

  /**
   * A page of the queue's groups: targets with reports of `status`, the one with the newest such report
   * first, keyed by that report's id.
   */
  async groups(
    status: string,
    before: string | undefined,
    take: number,
  ): Promise<{ targetKind: string; targetId: string; lastId: string; count: number }[]> {
    let query = this.db
      .selectFrom('reports')
      .select((eb) => [
        'targetKind',
        'targetId',
        eb.fn.max('id').as('lastId'),
        eb.fn.countAll<number | string>().as('count'),
      ])
      .where('status', '=', status)
      .groupBy(['targetKind', 'targetId']);
    if (before !== undefined) query = query.having((eb) => eb.fn.max('id'), '<', before);
    const rows = await query.orderBy('lastId', 'desc').limit(take).execute();
    return rows.map((row) => ({
      targetKind: row.targetKind,
      targetId: row.targetId,
      lastId: toId(row.lastId),
      count: toCount(row.count),
    }));
  }

  /** A target's reports of `status`, newest first, at most `max`. */
  async reportsOf(
    target: { kind: string; id: string },
    status: string,
    max: number,
  ): Promise<ReportRow[]> {
    const rows = await this.db
      .selectFrom('reports')
      .select([...reportColumns])
      .where('targetKind', '=', target.kind)
      .where('targetId', '=', target.id)
      .where('status', '=', status)
      .orderBy('id', 'desc')
      .limit(max)
      .execute();
    return rows.map(reportOf);
  }

  /** How many audit entries name the account, and the newest few. */
  async history(uid: string, recent: number): Promise<{ count: number; recent: HistoryRow[] }> {
    const [count, rows] = await Promise.all([
      this.db
        .selectFrom('moderation_actions')
        .select((eb) => eb.fn.countAll<number | string>().as('count'))
        .where('targetUserId', '=', uid)
        .executeTakeFirstOrThrow(),
      this.db
        .selectFrom('moderation_actions')
        .select(['id', 'action', 'reason', 'actorName', 'createdAt'])
        .where('targetUserId', '=', uid)
        .orderBy('id', 'desc')
        .limit(recent)
        .execute(),
    ]);
    return {
      count: toCount(count.count),
      recent: rows.map((row) => ({
        ...row,
        id: toId(row.id),
        createdAt: toIsoString(row.createdAt),
      })),
    };
  }

  /** Which of `staffIds` already have a `new_report` notification about one of `reportIds`. */
  async toldOf(staffIds: readonly string[], reportIds: readonly string[]): Promise<Set<string>> {
    if (staffIds.length === 0 || reportIds.length === 0) return new Set();
    const rows = await this.db
      .selectFrom('notifications')
      .select('recipientId')
      .distinct()
      .where('kind', '=', 'new_report')
      .where('recipientId', 'in', [...staffIds])
      .where('subjectId', 'in', [...reportIds])
      .execute();
    return new Set(rows.map((row) => row.recipientId));
  }

  /** Ids of the target's reports made since `since`. */
  async reportIdsSince(target: { kind: string; id: string }, since: string): Promise<string[]> {
    const rows = await this.db
      .selectFrom('reports')
      .select('id')
      .where('targetKind', '=', target.kind)
      .where('targetId', '=', target.id)
      .where('createdAt', '>=', since)
      .execute();
    return rows.map((row) => toId(row.id));
  }

  // Appeals.

  async appealFor(actionId: string): Promise<AppealRow | null> {
    const rows = await this.appealQuery().where('appeals.actionId', '=', actionId).execute();
    const row = rows[0];
    return row ? appealOf(row) : null;
  }

  async findAppeal(id: string): Promise<AppealRow | null> {
    const rows = await this.appealQuery().where('appeals.id', '=', id).execute();
    const row = rows[0];
    return row ? appealOf(row) : null;
  }

  /** Stores an appeal; null when the suspension was already appealed. */
  async insertAppeal(appeal: {
    userId: string;
    actionId: string;
    text: string;
    createdAt: string;
  }): Promise<AppealRow | null> {
    try {
      const row = await this.db
        .insertInto('appeals')
        .values({ ...appeal, status: 'pending' })
        .returning('id')
        .executeTakeFirstOrThrow();
      return await this.findAppeal(toId(row.id));
    } catch (error) {
      if (await this.appealFor(appeal.actionId)) return null;
      throw error;
    }
  }

  /** A page of appeals, pending or decided, newest first. */
  async appeals(decided: boolean, before: string | undefined, take: number): Promise<AppealRow[]> {
    let query = this.appealQuery();
    query = decided
      ? query.where('appeals.status', '!=', 'pending')
      : query.where('appeals.status', '=', 'pending');
    if (before !== undefined) query = query.where('appeals.id', '<', before);
    const rows = await query.orderBy('appeals.id', 'desc').limit(take).execute();
    return rows.map(appealOf);
  }

  /** The suspension audit entries of appeals: reason, details, when. */
  async actions(
    ids: readonly string[],
  ): Promise<Map<string, { reason: string | null; details: string | null; createdAt: string }>> {
    if (ids.length === 0) return new Map();
    const rows = await this.db
      .selectFrom('moderation_actions')
      .select(['id', 'reason', 'details', 'createdAt'])
      .where('id', 'in', [...ids])
      .execute();
    return new Map(
      rows.map((row) => [
        toId(row.id),
        { reason: row.reason, details: row.details, createdAt: toIsoString(row.createdAt) },
      ]),
    );
  }

  private appealQuery() {
    return this.db
      .selectFrom('appeals')
      .leftJoin('users as decider', 'decider.id', 'appeals.decidedBy')
      .select([
        'appeals.id',
        'appeals.userId',
        'appeals.actionId',
        'appeals.text',
        'appeals.status',
        'appeals.decidedBy',
        'decider.username as decidedByName',
        'appeals.decidedAt',
        'appeals.decisionReason',
        'appeals.createdAt',
      ]);
  }

  // The console's counts.

  async counts(): Promise<{
    openReports: number;
    openAppeals: number;
    pendingSignups: number;
    revision: number;
  }> {
    const [reports, appeals, signups, lastReport, lastAppeal, lastAction] = await Promise.all([
      this.db
        .selectFrom('reports')
        .select((eb) => eb.fn.countAll<number | string>().as('count'))
        .where('status', '=', 'open')
        .executeTakeFirstOrThrow(),
      this.db
        .selectFrom('appeals')
        .select((eb) => eb.fn.countAll<number | string>().as('count'))
        .where('status', '=', 'pending')
        .executeTakeFirstOrThrow(),
      this.db
        .selectFrom('users')
        .select((eb) => eb.fn.countAll<number | string>().as('count'))
        .where('awaitingApproval', '=', true)
        .executeTakeFirstOrThrow(),
      this.db
        .selectFrom('reports')
        .select((eb) => eb.fn.max('id').as('id'))
        .executeTakeFirst(),
      this.db
        .selectFrom('appeals')
        .select((eb) => eb.fn.max('id').as('id'))
        .executeTakeFirst(),
      this.db
        .selectFrom('moderation_actions')
        .select((eb) => eb.fn.max('id').as('id'))
        .executeTakeFirst(),
    ]);
    const pendingSignups = toCount(signups.count);
    const last = (row: { id: number | string | null } | undefined) =>
      row?.id === null || row?.id === undefined ? 0 : Number(row.id);
    return {
      openReports: toCount(reports.count),
      openAppeals: toCount(appeals.count),
      pendingSignups,
      // Every report, appeal and audited decision takes a new id; a sign-up moves the pending count.
      revision: last(lastReport) + last(lastAppeal) + last(lastAction) + pendingSignups,
    };
  }

  /** Accounts whose suspension ended between `after` and `until` (the sweep republishes them). */
  async expiredSuspensions(after: string, until: string, max: number): Promise<string[]> {
    const rows = await this.db
      .selectFrom('users')
      .select('id')
      .where('suspendedAt', 'is not', null)
      .where('suspendedUntil', '>', after)
      .where('suspendedUntil', '<=', until)
      .limit(max)
      .execute();
    return rows.map((row) => row.id);
  }
}

function appealOf(row: {
  id: number | string;
  userId: string;
  actionId: number | string;
  text: string;
  status: string;
  decidedBy: string | null;
  decidedByName: string | null;
  decidedAt: Date | string | null;
  decisionReason: string | null;
  createdAt: Date | string;
}): AppealRow {
  return {
    ...row,
    id: toId(row.id),
    actionId: toId(row.actionId),
    decidedAt: toIsoStringOrNull(row.decidedAt),
    createdAt: toIsoString(row.createdAt),
  };
}
