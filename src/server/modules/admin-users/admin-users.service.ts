import type { Logger } from 'pino';
import type {
  AdminUserDetail,
  AdminUserPermissions,
  AdminUserQuery,
  AdminUserRow,
  AdminUserState,
  ModerationNote,
} from '../../../shared/schemas/admin-user.js';
import {
  moderationActionSchema,
  type ModerationAction,
} from '../../../shared/schemas/moderation.js';
import type { Page } from '../../../shared/schemas/post.js';
import { isSuspended } from '../../../shared/schemas/user.js';
import { roleRank, type Role } from '../../../shared/roles.js';
import type { Config } from '../../config.js';
import { Conflict, Forbidden, Invalid, NotFound } from '../../errors.js';
import { actionMail, type Mailer } from '../../mail/mailer.js';
import { sendNotice } from '../../mail/security-mail.js';
import { parseRenditions } from '../../media/renditions.js';
import type { AuditActor, AuditEntry } from '../moderation/audit-log.repository.js';
import { toPage } from '../pagination.js';
import type { AdminUserRecord, AdminUsersRepository } from './admin-users.repository.js';

/**
 * Who acts: a signed-in moderator or administrator, or the operator at the command line, who outranks
 * everyone (the last-administrator rule still holds for them).
 */
export interface StaffActor extends AuditActor {
  role: Role;
  operator?: boolean;
}

/** The person behind a viewer, as the audit log names them. */
export function staffActor(
  viewer: { uid: string; role: Role },
  username: string | null,
): StaffActor {
  return { uid: viewer.uid, name: username ? `@${username}` : 'a moderator', role: viewer.role };
}

/** What the service needs besides its repository: each small, so the command line can give its own. */
export interface UsersAdminDeps {
  repository: AdminUsersRepository;
  /** Sends the user's current document to open pages (users.service `publish`). */
  publishUser(uid: string): Promise<void>;
  /** Ends cached copies of the account's sessions and signs its sockets out. */
  sessionsEnded(ended: { uid: string; sessionIds: string[] | null }): Promise<void>;
  /** Deletes the account with everything it made, through the account module's path and fan-out. */
  deleteAccount(uid: string): Promise<void>;
  /** Issues a password-reset link and mails it to the address. */
  sendResetLink(email: string): Promise<void>;
  mailer: Mailer;
  log: Logger;
  config: Pick<Config, 'publicUrl' | 'instanceName'>;
  mediaUrl(key: string): string;
  /** The moderation topic's counts changed (a sign-up arrived or was decided). */
  approvalsChanged?(): Promise<void>;
  /** Tells staff that someone signed up and waits for approval, and republishes the counts itself. */
  notifyStaff?(uid: string): Promise<void>;
}

const cursorOf = (row: { createdAt: string; id: string }) =>
  Buffer.from(JSON.stringify([row.createdAt, row.id])).toString('base64url');

function parseCursor(cursor: string | undefined): { createdAt: string; id: string } | undefined {
  if (!cursor) return undefined;
  try {
    const value: unknown = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8'));
    if (
      Array.isArray(value) &&
      value.length === 2 &&
      typeof value[0] === 'string' &&
      !Number.isNaN(Date.parse(value[0])) &&
      typeof value[1] === 'string' &&
      value[1].length <= 64
    ) {
      return { createdAt: new Date(value[0]).toISOString(), id: value[1] };
    }
  } catch {
    // Falls through to the error below.
  }
  throw new Invalid('That page link is not valid. Start the list again.', {
    cursor: 'Not a valid cursor.',
  });
}

export function stateOf(record: AdminUserRecord, now = Date.now()): AdminUserState {
  if (record.awaitingApproval) return 'pending';
  if (!record.active) return 'deactivated';
  if (isSuspended(record.suspendedAt, record.suspendedUntil, now)) return 'suspended';
  return 'active';
}

/** Actions that do the account no harm, which staff may take on their own account too. */
type Harmless = 'sessions' | 'reset';

/**
 * The console's actions on accounts (issue: moderation and administration §1, §4 "Users", §6). Every one is
 * authorised here, once: nobody acts on an account of equal or higher role, nobody acts on their own
 * account except where it is harmless, and the last administrator is never demoted or deleted. Every one
 * is recorded in the audit log and republishes the account's document.
 */
export class UsersAdminService {
  constructor(private readonly deps: UsersAdminDeps) {}

  private get repository() {
    return this.deps.repository;
  }

  async list(query: AdminUserQuery): Promise<Page<AdminUserRow>> {
    const rows = await this.repository.search({
      q: query.q || undefined,
      role: query.role,
      state: query.state,
      after: parseCursor(query.cursor),
      limit: query.limit,
    });
    const page = toPage(rows, query.limit, cursorOf);
    return { items: page.items.map((row) => this.row(row)), nextCursor: page.nextCursor };
  }

  async get(actor: StaffActor, uid: string): Promise<AdminUserDetail> {
    const record = await this.require(uid);
    const [recentPosts, reportsAgainst, reportsBy, history, notes] = await Promise.all([
      this.repository.recentPosts(uid),
      this.repository.reports(uid, 'against'),
      this.repository.reports(uid, 'by'),
      this.repository.history(uid),
      this.repository.notes(uid),
    ]);
    const suspended = isSuspended(record.suspendedAt, record.suspendedUntil);
    return {
      ...this.row(record),
      signupAnswer: record.signupAnswer,
      suspension:
        suspended && record.suspendedAt
          ? {
              reason: record.suspensionReason ?? '',
              since: record.suspendedAt,
              until: record.suspendedUntil,
            }
          : null,
      recentPosts,
      reportsAgainst,
      reportsBy,
      history: history.flatMap((entry) => {
        const action = moderationActionSchema.safeParse(entry.action);
        return action.success ? [{ ...entry, action: action.data }] : [];
      }),
      notes,
      permissions: await this.permissions(actor, record),
    };
  }

  async approve(actor: StaffActor, uid: string): Promise<void> {
    const target = await this.authorised(actor, uid);
    if (!target.awaitingApproval) throw new Conflict('This account is not waiting for approval.');
    await this.change(
      target,
      { awaitingApproval: false, active: true },
      { actor, action: 'signup_approved' },
    );
    this.mail(target, 'Your account is approved', [
      `Welcome to ${this.deps.config.instanceName}! Your account @${target.username ?? ''} has been approved.`,
      'You can now post, comment and follow people.',
    ]);
    await this.approvalsChanged();
  }

  /** Mails the reason, then deletes the account (with the account module's fan-out). */
  async reject(actor: StaffActor, uid: string, reason: string): Promise<void> {
    const target = await this.authorised(actor, uid);
    if (!target.awaitingApproval) throw new Conflict('This account is not waiting for approval.');
    await this.repository.record(this.entry(actor, target, 'signup_rejected', reason));
    // Sent before the deletion takes the address with it.
    this.mail(target, 'Your sign-up was not approved', [
      `Your request to join ${this.deps.config.instanceName} as @${target.username ?? ''} was not approved.`,
      `Reason: ${reason}`,
      'The account and what you entered have been deleted.',
    ]);
    await this.deps.deleteAccount(target.id);
    await this.approvalsChanged();
  }

  async setActive(actor: StaffActor, uid: string, active: boolean, reason?: string): Promise<void> {
    const target = await this.authorised(actor, uid);
    if (target.awaitingApproval) {
      throw new Conflict('This account is waiting for approval: approve or reject it instead.');
    }
    if (target.active === active) {
      throw new Conflict(
        active ? 'This account is already active.' : 'This account is already deactivated.',
      );
    }
    await this.change(
      target,
      { active },
      { actor, action: active ? 'user_activated' : 'user_deactivated', reason },
    );
    if (!active) await this.endSessions(target.id, null);
  }

  async setRole(actor: StaffActor, uid: string, role: Role, reason?: string): Promise<void> {
    if (!actor.operator && actor.role !== 'admin') {
      throw new Forbidden('Only administrators can change roles.');
    }
    const target = await this.authorised(actor, uid);
    if (target.role === role) throw new Conflict(`This account is already ${describeRole(role)}.`);
    if (!actor.operator && roleRank(role) > roleRank(actor.role)) {
      throw new Forbidden('You cannot give a role above your own.');
    }
    if (target.role === 'admin') await this.assertNotLastAdmin('demoted');
    await this.change(
      target,
      { role },
      { actor, action: 'role_changed', reason, details: { from: target.role, to: role } },
    );
  }

  async signOutEverywhere(actor: StaffActor, uid: string): Promise<void> {
    const target = await this.authorised(actor, uid, 'sessions');
    await this.endSessions(target.id, this.entry(actor, target, 'sessions_revoked'));
    await this.deps.publishUser(target.id);
  }

  async sendResetLink(actor: StaffActor, uid: string): Promise<void> {
    const target = await this.authorised(actor, uid, 'reset');
    await this.repository.record(this.entry(actor, target, 'reset_link_sent'));
    await this.deps.sendResetLink(target.email);
  }

  async delete(actor: StaffActor, uid: string, reason: string): Promise<void> {
    if (!actor.operator && actor.role !== 'admin') {
      throw new Forbidden('Only administrators can delete accounts.');
    }
    const target = await this.authorised(actor, uid);
    if (target.role === 'admin') await this.assertNotLastAdmin('deleted');
    await this.repository.record(this.entry(actor, target, 'user_deleted', reason));
    await this.deps.deleteAccount(target.id);
    if (target.awaitingApproval) await this.approvalsChanged();
  }

  async addNote(actor: StaffActor, uid: string, body: string): Promise<ModerationNote> {
    const target = await this.authorised(actor, uid);
    return this.repository.addNote(target.id, actor, body, {
      ...this.entry(actor, target, 'note_added'),
      note: body,
    });
  }

  /** Someone signed up in approval mode: staff are told and the console's counts change. */
  async signupPending(uid: string): Promise<void> {
    if (this.deps.notifyStaff) await this.deps.notifyStaff(uid);
    else await this.approvalsChanged();
  }

  /** The viewer as the audit log names them. */
  async actor(viewer: { uid: string; role: Role }): Promise<StaffActor> {
    const record = await this.repository.find(viewer.uid);
    return staffActor(viewer, record?.username ?? null);
  }

  /** The account by username, for the command line. */
  async uidOf(username: string): Promise<string> {
    const record = await this.repository.findByUsername(username);
    if (!record) throw new NotFound(`There is no user called @${username.toLowerCase()}.`);
    return record.id;
  }

  private async require(uid: string): Promise<AdminUserRecord> {
    const record = await this.repository.find(uid);
    if (!record) throw new NotFound('There is no user with that id.');
    return record;
  }

  /** Why the actor may not act on the target, or null when they may. */
  private refusal(actor: StaffActor, target: AdminUserRecord, harmless?: Harmless): string | null {
    if (actor.uid !== null && actor.uid === target.id) {
      return harmless ? null : 'You cannot take moderation actions on your own account.';
    }
    if (!actor.operator && roleRank(actor.role) <= roleRank(target.role)) {
      return `You cannot act on ${target.role === actor.role ? 'an account of your own role' : 'an account with a higher role'}.`;
    }
    return null;
  }

  private async authorised(
    actor: StaffActor,
    uid: string,
    harmless?: Harmless,
  ): Promise<AdminUserRecord> {
    const target = await this.require(uid);
    const refusal = this.refusal(actor, target, harmless);
    if (refusal) throw new Forbidden(refusal);
    return target;
  }

  private async permissions(
    actor: StaffActor,
    target: AdminUserRecord,
  ): Promise<AdminUserPermissions> {
    const reason = this.refusal(actor, target);
    const isAdmin = actor.operator === true || actor.role === 'admin';
    const act = reason === null;
    let adminReason: string | null = null;
    if (act && !isAdmin) adminReason = 'Only administrators can change roles or delete accounts.';
    else if (act && target.role === 'admin' && (await this.repository.adminCount()) <= 1) {
      adminReason = 'This is the last administrator.';
    }
    return {
      act,
      changeRole: act && isAdmin && adminReason === null,
      delete: act && isAdmin && adminReason === null,
      reason,
      adminReason,
    };
  }

  private async assertNotLastAdmin(what: 'demoted' | 'deleted'): Promise<void> {
    if ((await this.repository.adminCount()) <= 1) {
      throw new Conflict(
        `The last administrator cannot be ${what}. Make someone else an administrator first.`,
      );
    }
  }

  private entry(
    actor: StaffActor,
    target: AdminUserRecord,
    action: ModerationAction,
    reason?: string,
  ): AuditEntry {
    return {
      actor: { uid: actor.uid, name: actor.name },
      action,
      target: { uid: target.id, username: target.username },
      reason: reason ?? null,
    };
  }

  private async change(
    target: AdminUserRecord,
    changes: { active?: boolean; awaitingApproval?: boolean; role?: Role },
    audit: {
      actor: StaffActor;
      action: ModerationAction;
      reason?: string | undefined;
      details?: Record<string, unknown>;
    },
  ): Promise<void> {
    const entry = {
      ...this.entry(audit.actor, target, audit.action, audit.reason),
      details: audit.details ?? null,
    };
    if (!(await this.repository.change(target.id, changes, entry))) {
      throw new NotFound('That user no longer exists.');
    }
    await this.deps.publishUser(target.id);
  }

  private async endSessions(uid: string, entry: AuditEntry | null): Promise<void> {
    const ended = await this.repository.endSessions(uid, entry);
    await this.deps.sessionsEnded({ uid, sessionIds: ended.length > 0 ? ended : null });
  }

  private async approvalsChanged(): Promise<void> {
    try {
      await this.deps.approvalsChanged?.();
    } catch (error) {
      this.deps.log.warn({ err: error }, 'could not republish the moderation counts');
    }
  }

  /** A notice to the account's address; never fails or delays the decision itself. */
  private mail(target: AdminUserRecord, subject: string, lines: string[]): void {
    const { instanceName, publicUrl } = this.deps.config;
    sendNotice(this.deps.mailer, this.deps.log, {
      to: target.email,
      subject: `${subject} — ${instanceName}`,
      ...actionMail({
        instanceName,
        greeting: `Hello ${target.firstName ?? target.username ?? ''},`.replace(' ,', ','),
        lines,
        actionLabel: `Go to ${instanceName}`,
        actionUrl: publicUrl,
        footer: `You are receiving this because you signed up to ${instanceName}.`,
      }),
    });
  }

  private row(record: AdminUserRecord): AdminUserRow {
    const avatar = parseRenditions(record.avatarRenditions);
    const key = avatar.thumb?.key ?? avatar.avatar?.key;
    return {
      uid: record.id,
      username: record.username,
      firstName: record.firstName,
      lastName: record.lastName,
      displayName: record.displayName,
      avatarThumb: key ? this.deps.mediaUrl(key) : null,
      email: record.email,
      role: record.role,
      state: stateOf(record),
      active: record.active,
      awaitingApproval: record.awaitingApproval,
      suspended: isSuspended(record.suspendedAt, record.suspendedUntil),
      createdAt: record.createdAt,
      lastActiveAt: record.lastActiveAt,
      openReports: record.openReports,
    };
  }
}

function describeRole(role: Role): string {
  return role === 'admin' ? 'an administrator' : role === 'moderator' ? 'a moderator' : 'a user';
}
