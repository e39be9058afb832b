import { sql, type ExpressionBuilder, type Kysely } from 'kysely';
import type { AdminUserState } from '../../../shared/schemas/admin-user.js';
import { adminUserDetailLimits } from '../../../shared/schemas/admin-user.js';
import { toRole, type Role } from '../../../shared/roles.js';
import type { Database } from '../../db/schema.js';
import { toActive, toCount, toId, toIsoString, toIsoStringOrNull } from '../../db/values.js';
import type { AuditEntry, AuditLogRepository } from '../moderation/audit-log.repository.js';

/** An account as the console lists it: no profile text, no images but the avatar's renditions. */
export interface AdminUserRecord {
  id: string;
  username: string | null;
  firstName: string | null;
  lastName: string | null;
  displayName: string | null;
  email: string;
  role: Role;
  active: boolean;
  awaitingApproval: boolean;
  suspendedAt: string | null;
  suspendedUntil: string | null;
  suspensionReason: string | null;
  signupAnswer: string | null;
  createdAt: string;
  lastActiveAt: string | null;
  avatarRenditions: string | null;
  openReports: number;
}

export interface AdminUserFilter {
  q?: string | undefined;
  role?: Role | undefined;
  state?: AdminUserState | undefined;
  /** The last row of the previous page. */
  after?: { createdAt: string; id: string } | undefined;
  limit: number;
}

export interface AdminPostRecord {
  id: string;
  body: string;
  createdAt: string;
  removedAt: string | null;
  removalReason: string | null;
}

export interface AdminReportRecord {
  id: string;
  targetKind: string;
  targetId: string;
  reason: string;
  comment: string | null;
  status: string;
  outcome: string | null;
  otherUsername: string | null;
  createdAt: string;
}

export interface AdminHistoryRecord {
  id: string;
  action: string;
  actorName: string;
  reason: string | null;
  createdAt: string;
}

export interface NoteRecord {
  id: string;
  authorName: string;
  body: string;
  createdAt: string;
}

/** `%` and `_` taken literally in a LIKE pattern (with `ESCAPE '\'`). */
function likeEscape(text: string): string {
  return text.replace(/[\\%_]/g, (char) => `\\${char}`);
}

type Users = ExpressionBuilder<Database, 'users'>;

/** An account counts as active when the flag is set or, for accounts older than it, absent. */
const isActive = (eb: Users) =>
  eb.or([eb('users.active', '=', true), eb('users.active', 'is', null)]);

const isSuspendedNow = (eb: Users, now: string) =>
  eb.and([
    eb('users.suspendedAt', 'is not', null),
    eb.or([eb('users.suspendedUntil', 'is', null), eb('users.suspendedUntil', '>', now)]),
  ]);

/** The console's reads and writes of accounts, their notes and their moderation history. */
export class AdminUsersRepository {
  constructor(
    private readonly db: Kysely<Database>,
    private readonly audit: AuditLogRepository,
  ) {}

  private rows() {
    return this.db
      .selectFrom('users')
      .leftJoin('media as avatar', 'avatar.id', 'users.avatarMediaId')
      .select((eb) => [
        'users.id',
        'users.username',
        'users.firstName',
        'users.lastName',
        'users.displayName',
        'users.email',
        'users.role',
        'users.active',
        'users.awaitingApproval',
        'users.suspendedAt',
        'users.suspendedUntil',
        'users.suspensionReason',
        'users.signupAnswer',
        'users.createdAt',
        'users.lastActiveAt',
        'avatar.renditions as avatarRenditions',
        eb
          .selectFrom('reports')
          .select((inner) => inner.fn.countAll().as('n'))
          .whereRef('reports.targetUserId', '=', 'users.id')
          .where('reports.status', '=', 'open')
          .as('openReports'),
      ]);
  }

  private toRecord(
    row: Awaited<ReturnType<ReturnType<typeof this.rows>['executeTakeFirstOrThrow']>>,
  ) {
    return {
      id: row.id,
      username: row.username,
      firstName: row.firstName,
      lastName: row.lastName,
      displayName: row.displayName,
      email: row.email,
      role: toRole(row.role),
      active: toActive(row.active),
      awaitingApproval: Boolean(row.awaitingApproval),
      suspendedAt: toIsoStringOrNull(row.suspendedAt),
      suspendedUntil: toIsoStringOrNull(row.suspendedUntil),
      suspensionReason: row.suspensionReason,
      signupAnswer: row.signupAnswer,
      createdAt: toIsoString(row.createdAt),
      lastActiveAt: toIsoStringOrNull(row.lastActiveAt),
      avatarRenditions: row.avatarRenditions,
      openReports: toCount(row.openReports ?? 0),
    } satisfies AdminUserRecord;
  }

  /**
   * Newest accounts first, one more than `limit` (the caller pages with it). A username matches from its
   * start; a name or email anywhere in it. The search text is bounded by the contract.
   */
  async search(filter: AdminUserFilter): Promise<AdminUserRecord[]> {
    const now = new Date().toISOString();
    let query = this.rows();
    const q = filter.q?.toLowerCase();
    if (q) {
      const prefix = `${likeEscape(q)}%`;
      const anywhere = `%${likeEscape(q)}%`;
      query = query.where((eb) =>
        eb.or([
          sql<boolean>`${eb.ref('users.username')} like ${prefix} escape '\\'`,
          sql<boolean>`lower(${eb.ref('users.email')}) like ${anywhere} escape '\\'`,
          sql<boolean>`lower(${eb.ref('users.name')}) like ${anywhere} escape '\\'`,
          sql<boolean>`lower(coalesce(${eb.ref('users.displayName')}, '')) like ${anywhere} escape '\\'`,
        ]),
      );
    }
    if (filter.role) {
      const role = filter.role;
      query = query.where((eb) =>
        role === 'user'
          ? eb.or([
              eb('users.role', 'is', null),
              eb('users.role', 'not in', ['moderator', 'admin']),
            ])
          : eb('users.role', '=', role),
      );
    }
    switch (filter.state) {
      case 'pending':
        query = query.where('users.awaitingApproval', '=', true);
        break;
      case 'deactivated':
        query = query.where('users.awaitingApproval', '=', false).where('users.active', '=', false);
        break;
      case 'suspended':
        query = query
          .where('users.awaitingApproval', '=', false)
          .where((eb) => eb.and([isActive(eb), isSuspendedNow(eb, now)]));
        break;
      case 'active':
        query = query
          .where('users.awaitingApproval', '=', false)
          .where((eb) => eb.and([isActive(eb), eb.not(isSuspendedNow(eb, now))]));
        break;
      case undefined:
        break;
    }
    if (filter.after) {
      const { createdAt, id } = filter.after;
      query = query.where((eb) =>
        eb.or([
          eb('users.createdAt', '<', createdAt),
          eb.and([eb('users.createdAt', '=', createdAt), eb('users.id', '<', id)]),
        ]),
      );
    }
    const rows = await query
      .orderBy('users.createdAt', 'desc')
      .orderBy('users.id', 'desc')
      .limit(filter.limit + 1)
      .execute();
    return rows.map((row) => this.toRecord(row));
  }

  async find(uid: string): Promise<AdminUserRecord | undefined> {
    const row = await this.rows().where('users.id', '=', uid).executeTakeFirst();
    return row && this.toRecord(row);
  }

  async findByUsername(username: string): Promise<AdminUserRecord | undefined> {
    const row = await this.rows()
      .where('users.username', '=', username.toLowerCase())
      .executeTakeFirst();
    return row && this.toRecord(row);
  }

  /** How many administrators there are (the last one cannot be demoted or deleted). */
  async adminCount(): Promise<number> {
    const row = await this.db
      .selectFrom('users')
      .select((eb) => eb.fn.countAll().as('n'))
      .where('role', '=', 'admin')
      .executeTakeFirstOrThrow();
    return toCount(row.n);
  }

  /** Changes the account and records the action with it, in one transaction; false when it is gone. */
  async change(
    uid: string,
    changes: { active?: boolean; awaitingApproval?: boolean; role?: Role },
    entry: AuditEntry,
  ): Promise<boolean> {
    return this.db.transaction().execute(async (trx) => {
      const result = await trx
        .updateTable('users')
        .set({ ...changes, updatedAt: new Date().toISOString() })
        .where('id', '=', uid)
        .executeTakeFirst();
      if (result.numUpdatedRows === 0n) return false;
      await this.audit.record(entry, trx);
      return true;
    });
  }

  /** Records an action that changes nothing stored (a reset link, a deletion about to happen). */
  async record(entry: AuditEntry): Promise<string> {
    return this.audit.record(entry);
  }

  /** Deletes every session of the account and records it; answers the ids of the sessions ended. */
  async endSessions(uid: string, entry: AuditEntry | null): Promise<string[]> {
    return this.db.transaction().execute(async (trx) => {
      const rows = await trx
        .deleteFrom('sessions')
        .where('userId', '=', uid)
        .returning('id')
        .execute();
      if (entry) await this.audit.record(entry, trx);
      return rows.map((row) => row.id);
    });
  }

  async addNote(
    uid: string,
    author: { uid: string | null; name: string },
    body: string,
    entry: AuditEntry,
  ): Promise<NoteRecord> {
    return this.db.transaction().execute(async (trx) => {
      const createdAt = new Date().toISOString();
      const row = await trx
        .insertInto('moderation_notes')
        .values({ userId: uid, authorId: author.uid, authorName: author.name, body, createdAt })
        .returning('id')
        .executeTakeFirstOrThrow();
      await this.audit.record(entry, trx);
      return { id: toId(row.id), authorName: author.name, body, createdAt };
    });
  }

  async recentPosts(uid: string): Promise<AdminPostRecord[]> {
    const rows = await this.db
      .selectFrom('posts')
      .select(['id', 'body', 'createdAt', 'removedAt', 'removalReason'])
      .where('authorId', '=', uid)
      .orderBy('id', 'desc')
      .limit(adminUserDetailLimits.posts)
      .execute();
    return rows.map((row) => ({
      id: toId(row.id),
      body: row.body,
      createdAt: toIsoString(row.createdAt),
      removedAt: toIsoStringOrNull(row.removedAt),
      removalReason: row.removalReason,
    }));
  }

  /** Reports against the account (`against`) or made by it, counted and the last few. */
  async reports(
    uid: string,
    side: 'against' | 'by',
  ): Promise<{ open: number; total: number; recent: AdminReportRecord[] }> {
    const column = side === 'against' ? 'reports.targetUserId' : 'reports.reporterId';
    const other = side === 'against' ? 'reports.reporterId' : 'reports.targetUserId';
    const [counts, rows] = await Promise.all([
      this.db
        .selectFrom('reports')
        .select((eb) => [
          eb.fn.countAll().as('total'),
          eb.fn.count(eb.case().when('reports.status', '=', 'open').then(1).end()).as('open'),
        ])
        .where(column, '=', uid)
        .executeTakeFirstOrThrow(),
      this.db
        .selectFrom('reports')
        .leftJoin('users as other', 'other.id', other)
        .select([
          'reports.id',
          'reports.targetKind',
          'reports.targetId',
          'reports.reason',
          'reports.comment',
          'reports.status',
          'reports.outcome',
          'reports.createdAt',
          'other.username as otherUsername',
        ])
        .where(column, '=', uid)
        .orderBy('reports.id', 'desc')
        .limit(adminUserDetailLimits.reports)
        .execute(),
    ]);
    return {
      open: toCount(counts.open),
      total: toCount(counts.total),
      recent: rows.map((row) => ({
        id: toId(row.id),
        targetKind: row.targetKind,
        targetId: row.targetId,
        reason: row.reason,
        comment: row.comment,
        status: row.status,
        outcome: row.outcome,
        otherUsername: row.otherUsername,
        createdAt: toIsoString(row.createdAt),
      })),
    };
  }

  async history(uid: string): Promise<AdminHistoryRecord[]> {
    const rows = await this.db
      .selectFrom('moderation_actions')
      .select(['id', 'action', 'actorName', 'reason', 'createdAt'])
      .where('targetUserId', '=', uid)
      .orderBy('id', 'desc')
      .limit(adminUserDetailLimits.history)
      .execute();
    return rows.map((row) => ({
      id: toId(row.id),
      action: row.action,
      actorName: row.actorName,
      reason: row.reason,
      createdAt: toIsoString(row.createdAt),
    }));
  }

  async notes(uid: string): Promise<NoteRecord[]> {
    const rows = await this.db
      .selectFrom('moderation_notes')
      .select(['id', 'authorName', 'body', 'createdAt'])
      .where('userId', '=', uid)
      .orderBy('id', 'desc')
      .limit(adminUserDetailLimits.notes)
      .execute();
    return rows.map((row) => ({
      id: toId(row.id),
      authorName: row.authorName,
      body: row.body,
      createdAt: toIsoString(row.createdAt),
    }));
  }

  /** Keeps the answer to the sign-up question (approval mode). */
  async saveSignupAnswer(uid: string, answer: string): Promise<void> {
    await this.db
      .updateTable('users')
      .set({ signupAnswer: answer })
      .where('id', '=', uid)
      .execute();
  }
}
