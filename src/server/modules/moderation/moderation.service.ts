import type { Logger } from 'pino';
import { displayNameOf } from '../../../shared/display-name.js';
import { moderationTopic } from '../../../shared/realtime-protocol.js';
import type { ModerationAction } from '../../../shared/schemas/moderation.js';
import type { Page, PageQuery } from '../../../shared/schemas/post.js';
import {
  appealStatusSchema,
  contentStateSchema,
  reportOutcomeSchema,
  reportReasonSchema,
  reportSnapshotSchema,
  reportStatusSchema,
  reportsPerGroup,
  reportTargetKindSchema,
  suspensionMs,
  type Appeal,
  type AppealQueueQuery,
  type ContentModeration,
  type CreateReport,
  type ModerationState,
  type MyAppeal,
  type MyReport,
  type MySuspension,
  type ReportGroup,
  type ReportOutcome,
  type ReportQueueQuery,
  type ReportSnapshot,
  type ResolveReports,
  type ResolveResult,
  type SuspensionDuration,
  type UserSuspensionState,
} from '../../../shared/schemas/report.js';
import { isSuspended } from '../../../shared/schemas/user.js';
import { isStaff, roleRank, toRole, type Role } from '../../../shared/roles.js';
import type { Config } from '../../config.js';
import { Conflict, Forbidden, Invalid, NotFound } from '../../errors.js';
import type { EventBus } from '../../events/bus.js';
import type { Mailer } from '../../mail/mailer.js';
import { actionMail } from '../../mail/mailer.js';
import { sendNotice } from '../../mail/security-mail.js';
import { parseRenditions } from '../../media/renditions.js';
import type { Viewer } from '../../plugins/viewer.js';
import { excerptOf } from '../notifications/notifications.presenter.js';
import type { ModerationNotice } from '../notifications/notifications.repository.js';
import type { NotificationsService } from '../notifications/notifications.service.js';
import { toPage } from '../pagination.js';
import { presentAuthor } from '../users/authors.presenter.js';
import type { AuditActor } from './audit-log.repository.js';
import type {
  ContentRow,
  ModerationRepository,
  ModerationUser,
  ModerationWrite,
  ReportRow,
} from './moderation.repository.js';

/** Staff told of one new report at most; past this many, the queue's live count is the signal. */
const staffNotifiedMax = 25;
/** One `new_report` per target per hour to each staff member. */
const newReportQuietMs = 60 * 60_000;
/** Earlier audit entries shown with a queue group. */
const historyShown = 5;
/** Accounts whose suspension lapsed that one sweep republishes at most. */
const sweepBatch = 200;
const sweepEveryMs = 60_000;

/** Who acts: a signed-in staff member (their role bounds whom they may act on) or the operator. */
export interface ModerationActor {
  uid: string | null;
  role: Role;
  /** The command line: above every role. */
  operator?: boolean;
}

export const operatorModerationActor: ModerationActor = {
  uid: null,
  role: 'admin',
  operator: true,
};

/** What the service needs besides its repository. */
export interface ModerationDeps {
  repository: ModerationRepository;
  notifications: Pick<NotificationsService, 'notified'>;
  bus: EventBus;
  mailer: Mailer;
  log: Logger;
  config: Pick<Config, 'publicUrl' | 'instanceName'>;
  mediaUrl(key: string): string;
  /** Sends the account's current document to its open pages. */
  publishUser(uid: string): Promise<void>;
  /** Sends a post's document (null to others once removed) and the feed's change. */
  publishPost(postId: string): Promise<void>;
}

const targetNotFound = () =>
  new NotFound('That does not exist, was deleted, or was already removed.');

/**
 * Reports, the queue, moderators' actions and appeals (issue: moderation and administration §3–§5, ADR
 * 0021). Every action is authorised here, once: staff act, never on an account of equal or higher role,
 * never on themselves; every action records one audit entry in the transaction of its change.
 */
export class ModerationService {
  #timer: NodeJS.Timeout | undefined;
  #sweeping: Promise<void> | undefined;
  #lastSweep = new Date().toISOString();

  constructor(private readonly deps: ModerationDeps) {}

  private get repository(): ModerationRepository {
    return this.deps.repository;
  }

  /** An account by username, for the command line. */
  userByUsername(username: string): Promise<ModerationUser | null> {
    return this.repository.findUserByUsername(username);
  }

  /** A report's target, for the command line. */
  async reportById(
    id: string,
  ): Promise<{ targetKind: 'post' | 'comment' | 'profile'; targetId: string } | null> {
    const report = await this.repository.findReport(id);
    if (!report) return null;
    return {
      targetKind: reportTargetKindSchema.parse(report.targetKind),
      targetId: report.targetId,
    };
  }

  // Reports.

  async createReport(viewer: Viewer, input: CreateReport): Promise<MyReport> {
    const target = await this.reportTarget(input.targetKind, input.targetId);
    if (target.author.id === viewer.uid) {
      throw new Invalid(
        input.targetKind === 'profile'
          ? 'You cannot report yourself.'
          : 'You cannot report your own post or comment.',
      );
    }
    let rule: { id: string; text: string } | null = null;
    if (input.ruleId !== undefined) {
      const text = await this.repository.ruleText(input.ruleId);
      if (text === null)
        throw new Invalid('That rule does not exist.', { ruleId: 'Choose a rule.' });
      rule = { id: input.ruleId, text };
    }
    if (await this.repository.hasOpenReport(viewer.uid, input.targetKind, input.targetId)) {
      throw alreadyReported();
    }
    const snapshot: ReportSnapshot = { ...target.snapshot, rule };
    const report = await this.repository.insertReport({
      reporterId: viewer.uid,
      targetKind: input.targetKind,
      targetId: input.targetId,
      targetUserId: target.author.id,
      reason: input.reason,
      ruleId: input.ruleId ?? null,
      comment: input.comment ? input.comment : null,
      snapshot: JSON.stringify(snapshot),
      createdAt: new Date().toISOString(),
    });
    if (!report) throw alreadyReported();
    await this.guarded('tell staff of a report', () => this.tellStaffOfReport(report));
    await this.publishState();
    return this.myReport(report);
  }

  async myReports(viewer: Viewer, query: PageQuery): Promise<Page<MyReport>> {
    const rows = await this.repository.reportsBy(viewer.uid, query.cursor, query.limit + 1);
    const page = toPage(rows, query.limit, (row) => row.id);
    return { items: page.items.map((row) => this.myReport(row)), nextCursor: page.nextCursor };
  }

  async queue(query: ReportQueueQuery): Promise<Page<ReportGroup>> {
    const rows = await this.repository.groups(query.status, query.cursor, query.limit + 1);
    const page = toPage(rows, query.limit, (row) => row.lastId);
    const items = await Promise.all(page.items.map((group) => this.group(group, query.status)));
    return {
      items: items.filter((item): item is ReportGroup => item !== null),
      nextCursor: page.nextCursor,
    };
  }

  /** Acts on a reported target and closes its open reports with that outcome. */
  async resolve(actor: ModerationActor, input: ResolveReports): Promise<ResolveResult> {
    const staff = await this.staffMember(actor);
    const outcome: ReportOutcome = outcomes[input.action];
    const open = await this.repository.reportsOf(
      { kind: input.targetKind, id: input.targetId },
      'open',
      1,
    );
    const first = open[0];
    // The account acted on: the reported profile, or the content's author (from a report, kept when the
    // content is gone).
    let targetUid: string | null = first?.targetUserId ?? null;
    if (input.targetKind === 'profile') targetUid = input.targetId;
    if (targetUid === null) {
      const content =
        input.targetKind === 'profile'
          ? null
          : await this.repository.content(input.targetKind, input.targetId);
      targetUid = content?.authorId ?? null;
    }
    const removable =
      input.action === 'remove' && input.targetKind !== 'profile'
        ? await this.repository.content(input.targetKind, input.targetId)
        : null;
    if (input.action === 'remove' && !removable) {
      throw new NotFound('That does not exist or was deleted.');
    }
    if (removable?.removedAt) throw new Conflict('That is already removed.');
    if (input.action === 'dismiss' && !first) {
      throw new Conflict('There are no open reports of that to dismiss.');
    }
    const target = targetUid === null ? null : await this.repository.findUser(targetUid);
    if (target) this.authorise(staff, target);
    else if (input.action !== 'dismiss') throw new NotFound('That account no longer exists.');

    const at = new Date().toISOString();
    const { result, deliveries } = await this.repository.write(async (write) => {
      let actionId: string;
      let until: string | null = null;
      switch (input.action) {
        case 'dismiss':
          actionId = await write.record({
            actor: staff.audit,
            action: 'report_dismissed',
            target: target ? { uid: target.id, username: target.username } : null,
            subject: { kind: 'report', id: first?.id ?? input.targetId },
            reason: input.reason,
            details: { targetKind: input.targetKind, targetId: input.targetId },
          });
          break;
        case 'remove':
          if (!removable) throw new NotFound('That does not exist or was deleted.');
          actionId = await this.removeIn(write, staff, removable, target, input.reason, at);
          break;
        case 'warn':
          actionId = await this.warnIn(write, staff, mustExist(target), input.reason, {
            kind: input.targetKind,
            id: input.targetId,
          });
          break;
        case 'suspend': {
          const suspended = await this.suspendIn(
            write,
            staff,
            mustExist(target),
            input.reason,
            input.duration ?? 'indefinite',
            at,
          );
          actionId = suspended.actionId;
          until = suspended.until;
          break;
        }
      }
      const closed = await write.closeReports(
        { kind: input.targetKind, id: input.targetId },
        { outcome, by: staff.actor.uid, at, actionId },
      );
      await write.notify(reporterNotices(closed));
      return { actionId, closed: closed.length, until };
    });
    await this.afterAction(deliveries);
    if (input.action === 'remove') await this.republishContent(input.targetKind, input.targetId);
    if (input.action === 'warn' && target) this.mailWarning(target, input.reason);
    if (input.action === 'suspend' && target) {
      this.mailSuspension(target, input.reason, result.until);
      await this.deps.publishUser(target.id);
    }
    return { outcome, closed: result.closed, actionId: result.actionId };
  }

  // Content.

  async removeContent(
    actor: ModerationActor,
    kind: 'post' | 'comment',
    id: string,
    reason: string,
  ): Promise<ContentModeration> {
    const staff = await this.staffMember(actor);
    const content = await this.repository.content(kind, id);
    if (!content) throw new NotFound(`That ${kind} does not exist or was deleted.`);
    if (content.removedAt !== null) throw new Conflict(`That ${kind} is already removed.`);
    const author = await this.repository.findUser(content.authorId);
    if (author) this.authorise(staff, author);
    const at = new Date().toISOString();
    const { result: actionId, deliveries } = await this.repository.write(async (write) => {
      const actionId = await this.removeIn(write, staff, content, author, reason, at);
      const closed = await write.closeReports(
        { kind, id },
        { outcome: 'removed', by: staff.actor.uid, at, actionId },
      );
      await write.notify(reporterNotices(closed));
      return actionId;
    });
    await this.afterAction(deliveries);
    await this.republishContent(kind, id);
    return { kind, id, removal: { reason, at }, actionId };
  }

  async restoreContent(
    actor: ModerationActor,
    kind: 'post' | 'comment',
    id: string,
    reason: string,
  ): Promise<ContentModeration> {
    const staff = await this.staffMember(actor);
    const content = await this.repository.content(kind, id);
    if (!content) throw new NotFound(`That ${kind} does not exist or was deleted.`);
    if (content.removedAt === null) throw new Conflict(`That ${kind} is not removed.`);
    const author = await this.repository.findUser(content.authorId);
    if (author) this.authorise(staff, author);
    const { result: actionId } = await this.repository.write(async (write) => {
      if (!(await write.setRemoval(kind, id, null))) {
        throw new Conflict(`That ${kind} is not removed.`);
      }
      return write.record({
        actor: staff.audit,
        action: 'content_restored',
        target: author ? { uid: author.id, username: author.username } : null,
        subject: { kind, id, excerpt: excerptOf(content.body) },
        reason,
      });
    });
    await this.publishState();
    await this.republishContent(kind, id);
    return { kind, id, removal: null, actionId };
  }

  // Accounts.

  async warn(actor: ModerationActor, uid: string, reason: string): Promise<{ actionId: string }> {
    const staff = await this.staffMember(actor);
    const target = await this.account(uid);
    this.authorise(staff, target);
    const { result: actionId, deliveries } = await this.repository.write((write) =>
      this.warnIn(write, staff, target, reason, null),
    );
    await this.afterAction(deliveries);
    this.mailWarning(target, reason);
    return { actionId };
  }

  async suspend(
    actor: ModerationActor,
    uid: string,
    reason: string,
    duration: SuspensionDuration,
  ): Promise<UserSuspensionState> {
    const staff = await this.staffMember(actor);
    const target = await this.account(uid);
    this.authorise(staff, target);
    const at = new Date().toISOString();
    const { result, deliveries } = await this.repository.write((write) =>
      this.suspendIn(write, staff, target, reason, duration, at),
    );
    await this.afterAction(deliveries);
    await this.deps.publishUser(uid);
    this.mailSuspension(target, reason, result.until);
    return {
      uid,
      suspended: true,
      since: at,
      until: result.until,
      reason,
      actionId: result.actionId,
    };
  }

  async lift(actor: ModerationActor, uid: string, reason: string): Promise<UserSuspensionState> {
    const staff = await this.staffMember(actor);
    const target = await this.account(uid);
    this.authorise(staff, target);
    if (!isSuspended(target.suspendedAt, target.suspendedUntil)) {
      throw new Conflict('That account is not suspended, or its suspension already ended.');
    }
    const at = new Date().toISOString();
    const { result: actionId, deliveries } = await this.repository.write(async (write) => {
      if (!(await write.lift(uid, at))) {
        throw new Conflict('That account is not suspended, or its suspension already ended.');
      }
      const actionId = await write.record({
        actor: staff.audit,
        action: 'suspension_lifted',
        target: { uid, username: target.username },
        reason,
      });
      await write.notify([
        { kind: 'suspension_lifted', recipientId: uid, actorId: uid, subjectId: actionId },
      ]);
      return actionId;
    });
    await this.afterAction(deliveries);
    await this.deps.publishUser(uid);
    this.mail(target, 'Your suspension was lifted', [
      `The moderators of ${this.deps.config.instanceName} lifted the suspension of your account.`,
      `Their reason: ${reason}`,
    ]);
    return { uid, suspended: false, since: null, until: null, reason: null, actionId };
  }

  // Appeals.

  async mySuspension(viewer: Viewer): Promise<MySuspension> {
    const user = await this.repository.findUser(viewer.uid);
    if (!user || !user.suspendedAt || !isSuspended(user.suspendedAt, user.suspendedUntil)) {
      return { suspension: null };
    }
    const appeal =
      user.suspensionActionId === null
        ? null
        : await this.repository.appealFor(user.suspensionActionId);
    return {
      suspension: {
        reason: user.suspensionReason ?? '',
        since: user.suspendedAt,
        until: user.suspendedUntil,
        appeal: appeal ? myAppealOf(appeal) : null,
        mayAppeal: appeal === null && user.suspensionActionId !== null,
      },
    };
  }

  async appeal(viewer: Viewer, text: string): Promise<MyAppeal> {
    const user = await this.repository.findUser(viewer.uid);
    if (
      !user ||
      !user.suspendedAt ||
      user.suspensionActionId === null ||
      !isSuspended(user.suspendedAt, user.suspendedUntil)
    ) {
      throw new Conflict('Your account is not suspended, so there is nothing to appeal.');
    }
    const appeal = await this.repository.insertAppeal({
      userId: user.id,
      actionId: user.suspensionActionId,
      text,
      createdAt: new Date().toISOString(),
    });
    if (!appeal) throw new Conflict('You have already appealed this suspension.');
    await this.guarded('tell staff of an appeal', async () => {
      const staff = (await this.repository.staff(staffNotifiedMax)).filter(
        (uid) => uid !== user.id,
      );
      const { deliveries } = await this.repository.write(async (write) => {
        await write.notify(
          staff.map((recipientId) => ({
            kind: 'new_appeal' as const,
            recipientId,
            actorId: user.id,
            subjectId: appeal.id,
          })),
        );
      });
      await this.deps.notifications.notified({ deliveries, withdrawn: [] });
    });
    await this.publishState();
    return myAppealOf(appeal);
  }

  async appeals(query: AppealQueueQuery): Promise<Page<Appeal>> {
    const rows = await this.repository.appeals(
      query.status === 'decided',
      query.cursor,
      query.limit + 1,
    );
    const page = toPage(rows, query.limit, (row) => row.id);
    return { items: await this.presentAppeals(page.items), nextCursor: page.nextCursor };
  }

  async decideAppeal(
    actor: ModerationActor,
    appealId: string,
    decision: { accept: boolean; reason: string },
  ): Promise<Appeal> {
    const staff = await this.staffMember(actor);
    const appeal = await this.repository.findAppeal(appealId);
    if (!appeal) throw new NotFound('There is no such appeal.');
    if (appeal.status !== 'pending') throw new Conflict('That appeal was already decided.');
    const target = await this.account(appeal.userId);
    this.authorise(staff, target);
    const at = new Date().toISOString();
    const stillSuspended =
      target.suspensionActionId === appeal.actionId &&
      isSuspended(target.suspendedAt, target.suspendedUntil);
    const { deliveries } = await this.repository.write(async (write) => {
      if (
        !(await write.decideAppeal(appealId, {
          status: decision.accept ? 'accepted' : 'rejected',
          by: staff.actor.uid,
          at,
          reason: decision.reason,
        }))
      ) {
        throw new Conflict('That appeal was already decided.');
      }
      await write.record({
        actor: staff.audit,
        action: decision.accept ? 'appeal_accepted' : 'appeal_rejected',
        target: { uid: target.id, username: target.username },
        subject: { kind: 'appeal', id: appealId },
        reason: decision.reason,
      });
      // Accepting lifts the suspension it answers, if that still holds.
      if (decision.accept && stillSuspended) await write.lift(target.id, at);
      await write.notify([
        { kind: 'appeal_decided', recipientId: target.id, actorId: target.id, subjectId: appealId },
      ]);
    });
    await this.afterAction(deliveries);
    if (decision.accept && stillSuspended) await this.deps.publishUser(target.id);
    this.mail(target, decision.accept ? 'Your appeal was accepted' : 'Your appeal was rejected', [
      decision.accept
        ? `The moderators of ${this.deps.config.instanceName} accepted your appeal; your suspension is lifted.`
        : `The moderators of ${this.deps.config.instanceName} rejected your appeal; your suspension stays.`,
      `Their reason: ${decision.reason}`,
    ]);
    const updated = await this.repository.findAppeal(appealId);
    const [presented] = await this.presentAppeals(updated ? [updated] : []);
    if (!presented) throw new NotFound('There is no such appeal.');
    return presented;
  }

  // The live topic and staff notifications.

  state(): Promise<ModerationState> {
    return this.repository.counts();
  }

  /** Republishes the console's counts to every staff tab. Never throws: the change is saved. */
  async publishState(): Promise<void> {
    await this.guarded('publish the moderation counts', async () => {
      await this.deps.bus.publish({ topic: moderationTopic, data: await this.state() });
    });
  }

  /** A sign-up waits for approval: staff are told (Part of the users console calls this). */
  async signupPending(uid: string): Promise<void> {
    await this.guarded('tell staff of a sign-up', async () => {
      const staff = await this.repository.staff(staffNotifiedMax);
      const { deliveries } = await this.repository.write((write) =>
        write.notify(
          staff.map((recipientId) => ({
            kind: 'signup_pending' as const,
            recipientId,
            actorId: uid,
            subjectId: null,
          })),
        ),
      );
      await this.deps.notifications.notified({ deliveries, withdrawn: [] });
    });
    await this.publishState();
  }

  /** Republishes the accounts whose suspension lapsed since the last sweep, so open pages learn. */
  async sweep(now = new Date()): Promise<number> {
    const until = now.toISOString();
    const uids = await this.repository.expiredSuspensions(this.#lastSweep, until, sweepBatch);
    this.#lastSweep = until;
    for (const uid of uids) {
      await this.guarded('republish a lapsed suspension', () => this.deps.publishUser(uid));
    }
    return uids.length;
  }

  start(): void {
    this.#timer = setInterval(() => {
      this.#sweeping = this.sweep().then(
        () => undefined,
        (error: unknown) => this.deps.log.warn({ err: error }, 'could not sweep suspensions'),
      );
    }, sweepEveryMs);
    this.#timer.unref();
  }

  async close(): Promise<void> {
    clearInterval(this.#timer);
    await this.#sweeping;
  }

  // Inside a write.

  /** Removes content read before the transaction (a read inside it would wait on SQLite's one writer). */
  private async removeIn(
    write: ModerationWrite,
    staff: StaffMember,
    content: ContentRow,
    author: ModerationUser | null,
    reason: string,
    at: string,
  ): Promise<string> {
    if (!(await write.setRemoval(content.kind, content.id, { at, reason }))) {
      throw new Conflict(`That ${content.kind} is already removed.`);
    }
    const actionId = await write.record({
      actor: staff.audit,
      action: 'content_removed',
      target: author ? { uid: author.id, username: author.username } : null,
      subject: { kind: content.kind, id: content.id, excerpt: excerptOf(content.body) },
      reason,
    });
    await write.notify([
      {
        kind: 'content_removed',
        recipientId: content.authorId,
        actorId: content.authorId,
        subjectId: actionId,
      },
    ]);
    return actionId;
  }

  private async warnIn(
    write: ModerationWrite,
    staff: StaffMember,
    target: ModerationUser,
    reason: string,
    about: { kind: string; id: string } | null,
  ): Promise<string> {
    const subjectKind = reportTargetKindSchema.safeParse(about?.kind);
    const actionId = await write.record({
      actor: staff.audit,
      action: 'user_warned',
      target: { uid: target.id, username: target.username },
      subject:
        about && subjectKind.success && subjectKind.data !== 'profile'
          ? { kind: subjectKind.data, id: about.id }
          : null,
      reason,
    });
    await write.notify([
      { kind: 'warning', recipientId: target.id, actorId: target.id, subjectId: actionId },
    ]);
    return actionId;
  }

  private async suspendIn(
    write: ModerationWrite,
    staff: StaffMember,
    target: ModerationUser,
    reason: string,
    duration: SuspensionDuration,
    at: string,
  ): Promise<{ actionId: string; until: string | null }> {
    const ms = suspensionMs(duration);
    const until = ms === null ? null : new Date(Date.parse(at) + ms).toISOString();
    const actionId = await write.record({
      actor: staff.audit,
      action: 'user_suspended',
      target: { uid: target.id, username: target.username },
      reason,
      details: { duration, until },
    });
    await write.suspend(target.id, { since: at, until, reason, actionId });
    await write.notify([
      { kind: 'suspension', recipientId: target.id, actorId: target.id, subjectId: actionId },
    ]);
    return { actionId, until };
  }

  // Helpers.

  /** The actor as a staff member, or a 403; the operator always is one. */
  private async staffMember(actor: ModerationActor): Promise<StaffMember> {
    if (actor.operator || actor.uid === null) {
      return { actor, audit: { uid: null, name: 'operator' } };
    }
    if (!isStaff(actor.role))
      throw new Forbidden('Only moderators and administrators can do that.');
    const record = await this.repository.findUser(actor.uid);
    const name = record?.username ? `@${record.username}` : 'a moderator';
    return { actor, audit: { uid: actor.uid, name } };
  }

  /** Nobody acts on themselves or on an account of equal or higher role; the operator acts on anyone. */
  private authorise(staff: StaffMember, target: ModerationUser): void {
    if (staff.actor.operator) return;
    if (staff.actor.uid === target.id) {
      throw new Forbidden('You cannot take moderation actions about your own account.');
    }
    const role = toRole(target.role);
    if (roleRank(staff.actor.role) <= roleRank(role)) {
      throw new Forbidden(
        role === staff.actor.role
          ? 'You cannot act on an account of your own role.'
          : 'You cannot act on an account with a higher role.',
      );
    }
  }

  private async account(uid: string): Promise<ModerationUser> {
    const user = await this.repository.findUser(uid);
    if (!user) throw new NotFound('There is no user with that id.');
    return user;
  }

  /** The reported thing as it is now: its author and a snapshot; 404 when gone or removed. */
  private async reportTarget(
    kind: 'post' | 'comment' | 'profile',
    id: string,
  ): Promise<{ author: ModerationUser; snapshot: Omit<ReportSnapshot, 'rule'> }> {
    if (kind === 'profile') {
      const user = await this.repository.findUser(id);
      if (!user || user.username === null) throw targetNotFound();
      const media = await this.repository.mediaRenditions(
        [user.avatarMediaId, user.coverMediaId].filter((value): value is string => value !== null),
      );
      return {
        author: user,
        snapshot: {
          kind,
          id,
          postId: null,
          text: [displayNameOf(user), user.bio ?? ''].filter(Boolean).join('\n'),
          images: media.flatMap((row) => this.imagesOf(row)),
          author: authorOf(user),
          createdAt: user.createdAt,
        },
      };
    }
    const content = await this.repository.content(kind, id);
    if (!content || content.removedAt !== null) throw targetNotFound();
    const author = await this.repository.findUser(content.authorId);
    if (!author) throw targetNotFound();
    return {
      author,
      snapshot: {
        kind,
        id,
        postId: content.postId,
        text: content.body,
        images: content.images.flatMap((row) => this.imagesOf(row)),
        author: authorOf(author),
        createdAt: content.createdAt,
      },
    };
  }

  private imagesOf(row: { renditions: string; alt: string | null }): ReportSnapshot['images'] {
    const renditions = parseRenditions(row.renditions);
    const best = renditions.full ?? renditions.feed ?? renditions.avatar ?? renditions.cover;
    return best ? [{ url: this.deps.mediaUrl(best.key), key: best.key, alt: row.alt }] : [];
  }

  private myReport(row: ReportRow): MyReport {
    const snapshot = parseSnapshot(row.snapshot);
    const outcome = reportOutcomeSchema.safeParse(row.outcome);
    return {
      id: row.id,
      targetKind: reportTargetKindSchema.parse(row.targetKind),
      targetId: row.targetId,
      excerpt: snapshot ? excerptOf(snapshot.text) : '',
      reason: reportReasonSchema.parse(row.reason),
      ruleId: row.ruleId,
      comment: row.comment,
      status: reportStatusSchema.parse(row.status),
      outcome: outcome.success ? outcome.data : null,
      createdAt: row.createdAt,
      resolvedAt: row.resolvedAt,
    };
  }

  private async group(
    group: { targetKind: string; targetId: string; lastId: string; count: number },
    status: 'open' | 'resolved',
  ): Promise<ReportGroup | null> {
    const kind = reportTargetKindSchema.safeParse(group.targetKind);
    if (!kind.success) return null;
    const reports = await this.repository.reportsOf(
      { kind: group.targetKind, id: group.targetId },
      status,
      reportsPerGroup,
    );
    const oldest = reports.at(-1);
    const newest = reports[0];
    const snapshot = oldest ? parseSnapshot(oldest.snapshot) : null;
    if (!snapshot || !newest) return null;
    const authorUid = newest.targetUserId;
    const [content, author, history, reporters] = await Promise.all([
      kind.data === 'profile' ? null : this.repository.content(kind.data, group.targetId),
      authorUid === null ? null : this.repository.findUser(authorUid),
      authorUid === null
        ? { count: 0, recent: [] }
        : this.repository.history(authorUid, historyShown),
      this.repository.authors(
        reports.flatMap((report) => (report.reporterId ? [report.reporterId] : [])),
      ),
    ]);
    const authorRows = await this.repository.authors(author ? [author.id] : []);
    const presented = new Map(
      [...reporters, ...authorRows].map((row) => [
        row.authorUid,
        presentAuthor(row, (key) => this.deps.mediaUrl(key)),
      ]),
    );
    const contentState =
      kind.data === 'profile'
        ? author
          ? 'exists'
          : 'deleted'
        : content === null
          ? 'deleted'
          : content.removedAt !== null
            ? 'removed'
            : 'exists';
    const authorPresented = author ? presented.get(author.id) : undefined;
    return {
      id: group.lastId,
      targetKind: kind.data,
      targetId: group.targetId,
      status,
      lastReportAt: newest.createdAt,
      snapshot,
      contentState: contentStateSchema.parse(contentState),
      removal:
        content !== null && content.removedAt !== null
          ? { reason: content.removalReason ?? '', at: content.removedAt }
          : null,
      author:
        author && authorPresented
          ? {
              ...authorPresented,
              role: toRole(author.role),
              suspended: isSuspended(author.suspendedAt, author.suspendedUntil),
              suspendedUntil: author.suspendedUntil,
            }
          : null,
      history: {
        count: history.count,
        recent: history.recent.flatMap((entry) => {
          const action = entry.action as ModerationAction;
          return [{ ...entry, action }];
        }),
      },
      reports: reports.map((report) => {
        const reportSnapshot = parseSnapshot(report.snapshot);
        const outcome = reportOutcomeSchema.safeParse(report.outcome);
        return {
          id: report.id,
          reason: reportReasonSchema.parse(report.reason),
          ruleId: report.ruleId,
          ruleText: reportSnapshot?.rule?.text ?? null,
          comment: report.comment,
          createdAt: report.createdAt,
          status: reportStatusSchema.parse(report.status),
          outcome: outcome.success ? outcome.data : null,
          resolvedAt: report.resolvedAt,
          reporter: report.reporterId ? (presented.get(report.reporterId) ?? null) : null,
        };
      }),
      reportCount: group.count,
    };
  }

  private async presentAppeals(
    rows: Awaited<ReturnType<ModerationRepository['appeals']>>,
  ): Promise<Appeal[]> {
    const [authors, actions, users] = await Promise.all([
      this.repository.authors(rows.map((row) => row.userId)),
      this.repository.actions(rows.map((row) => row.actionId)),
      Promise.all(rows.map((row) => this.repository.findUser(row.userId))),
    ]);
    const presented = new Map(
      authors.map((row) => [row.authorUid, presentAuthor(row, (key) => this.deps.mediaUrl(key))]),
    );
    return rows.map((row, index) => {
      const action = actions.get(row.actionId);
      const user = users[index] ?? null;
      const details = action?.details ? (JSON.parse(action.details) as { until?: unknown }) : {};
      const until = typeof details.until === 'string' ? details.until : null;
      return {
        id: row.id,
        status: appealStatusSchema.parse(row.status),
        text: row.text,
        createdAt: row.createdAt,
        user: presented.get(row.userId) ?? null,
        suspension: {
          reason: action?.reason ?? null,
          since: action?.createdAt ?? null,
          until,
          current:
            user !== null &&
            user.suspensionActionId === row.actionId &&
            isSuspended(user.suspendedAt, user.suspendedUntil),
        },
        decidedAt: row.decidedAt,
        decisionReason: row.decisionReason,
        decidedBy: row.decidedByName ? `@${row.decidedByName}` : row.decidedAt ? 'operator' : null,
      };
    });
  }

  /**
   * Tells staff of a new report: at most one `new_report` per target per hour to each, and only the
   * first `staffNotifiedMax` staff (a large team watches the live count instead).
   */
  private async tellStaffOfReport(report: ReportRow): Promise<void> {
    const staff = (await this.repository.staff(staffNotifiedMax)).filter(
      (uid) => uid !== report.reporterId && uid !== report.targetUserId,
    );
    if (staff.length === 0) return;
    const since = new Date(Date.now() - newReportQuietMs).toISOString();
    const recent = (
      await this.repository.reportIdsSince({ kind: report.targetKind, id: report.targetId }, since)
    ).filter((id) => id !== report.id);
    const told = await this.repository.toldOf(staff, recent);
    const notices: ModerationNotice[] = staff
      .filter((uid) => !told.has(uid))
      .map((recipientId) => ({
        kind: 'new_report',
        recipientId,
        actorId: report.targetUserId ?? recipientId,
        subjectId: report.id,
      }));
    const { deliveries } = await this.repository.write((write) => write.notify(notices));
    await this.deps.notifications.notified({ deliveries, withdrawn: [] });
  }

  private async afterAction(
    deliveries: Awaited<ReturnType<ModerationRepository['write']>>['deliveries'],
  ): Promise<void> {
    await this.deps.notifications.notified({ deliveries, withdrawn: [] });
    await this.publishState();
  }

  /** A removed or restored post's document goes to its watchers and the feed; a comment's post's too. */
  private async republishContent(kind: string, id: string): Promise<void> {
    await this.guarded('republish moderated content', async () => {
      if (kind === 'post') await this.deps.publishPost(id);
      if (kind === 'comment') {
        const content: ContentRow | null = await this.repository.content('comment', id);
        if (content?.postId) await this.deps.publishPost(content.postId);
      }
    });
  }

  private mailWarning(target: ModerationUser, reason: string): void {
    this.mail(target, 'A warning from the moderators', [
      `The moderators of ${this.deps.config.instanceName} sent you a warning.`,
      `Their reason: ${reason}`,
    ]);
  }

  private mailSuspension(target: ModerationUser, reason: string, until: string | null): void {
    this.mail(target, 'Your account is suspended', [
      until
        ? `The moderators of ${this.deps.config.instanceName} suspended your account until ${until.slice(0, 16).replace('T', ' ')} UTC.`
        : `The moderators of ${this.deps.config.instanceName} suspended your account until further notice.`,
      `Their reason: ${reason}`,
      'You can still sign in, read, and appeal once from the page about your suspension.',
    ]);
  }

  /** A notice to the account's address; never fails or delays the action. */
  private mail(target: ModerationUser, subject: string, lines: string[]): void {
    const { instanceName, publicUrl } = this.deps.config;
    const url = `${publicUrl}/suspended`;
    const body = actionMail({
      instanceName,
      greeting: `Hello ${displayNameOf(target)},`,
      lines,
      actionLabel: 'See your notifications',
      actionUrl: `${publicUrl}/notifications`,
      footer: `The moderators of ${instanceName} send this whenever they act on your account or content.`,
    });
    sendNotice(this.deps.mailer, this.deps.log, {
      to: target.email,
      subject: `${subject} — ${instanceName}`,
      ...body,
      link: url,
    });
  }

  private async guarded(what: string, work: () => Promise<void>): Promise<void> {
    try {
      await work();
    } catch (error) {
      this.deps.log.warn({ err: error }, `could not ${what}`);
    }
  }
}

interface StaffMember {
  actor: ModerationActor;
  audit: AuditActor;
}

const outcomes: Record<ResolveReports['action'], ReportOutcome> = {
  dismiss: 'dismissed',
  remove: 'removed',
  warn: 'warned',
  suspend: 'suspended',
};

const alreadyReported = () =>
  new Conflict('You have already reported this. The moderators will look at it.');

function reporterNotices(
  closed: readonly { id: string; reporterId: string | null }[],
): ModerationNotice[] {
  return closed.flatMap((report) =>
    report.reporterId === null
      ? []
      : [
          {
            kind: 'report_resolved' as const,
            recipientId: report.reporterId,
            actorId: report.reporterId,
            subjectId: report.id,
          },
        ],
  );
}

function mustExist(user: ModerationUser | null): ModerationUser {
  if (!user) throw new NotFound('That account no longer exists.');
  return user;
}

function authorOf(user: ModerationUser): ReportSnapshot['author'] {
  return { uid: user.id, username: user.username, displayName: displayNameOf(user) };
}

function parseSnapshot(json: string): ReportSnapshot | null {
  try {
    const parsed = reportSnapshotSchema.safeParse(JSON.parse(json));
    return parsed.success ? parsed.data : null;
  } catch {
    return null;
  }
}

function myAppealOf(row: {
  id: string;
  text: string;
  status: string;
  createdAt: string;
  decidedAt: string | null;
  decisionReason: string | null;
}): MyAppeal {
  return {
    id: row.id,
    text: row.text,
    status: appealStatusSchema.parse(row.status),
    createdAt: row.createdAt,
    decidedAt: row.decidedAt,
    decisionReason: row.decisionReason,
  };
}
