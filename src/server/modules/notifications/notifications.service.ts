import { hash, randomBytes } from 'node:crypto';
import type { Logger } from 'pino';
import { displayNameOf } from '../../../shared/display-name.js';
import { limits, notificationDelivery } from '../../../shared/limits.js';
import { notificationsTopic } from '../../../shared/realtime-protocol.js';
import {
  immediateEmailKinds,
  type NotificationGroup,
  type NotificationKind,
  type NotificationQuery,
  type NotificationSettings,
  type UnreadState,
  type UnsubscribeState,
} from '../../../shared/schemas/notification.js';
import type { Page } from '../../../shared/schemas/post.js';
import type { Config } from '../../config.js';
import { Conflict, NotFound } from '../../errors.js';
import type { EventBus } from '../../events/bus.js';
import type { Mailer } from '../../mail/mailer.js';
import { maskEmail, sendNotice } from '../../mail/security-mail.js';
import type { Viewer } from '../../plugins/viewer.js';
import { toPage } from '../pagination.js';
import { presentAuthor } from '../users/authors.presenter.js';
import { digestMail, immediateMail, notificationUrl, type MailLine } from './notification-mail.js';
import { withoutMail } from './notification-settings.js';
import { excerptOf, nameInMail, type NotificationPresenter } from './notifications.presenter.js';
import type {
  Delivery,
  MailRecipient,
  NotificationCause,
  NotificationsRepository,
  Notified,
} from './notifications.repository.js';

const hourMs = 60 * 60_000;
/** Bells republished at once after a change that touches many accounts. */
const publishBatch = 50;
/** Batches of old rows one sweep deletes at most, so a long backlog never holds one sweep for long. */
const pruneBatchesPerSweep = 20;

const unsubscribeNotFound = () =>
  new NotFound('This unsubscribe link is not valid. It may have expired.');

/** The stored form of an unsubscribe token: its SHA-256, so the database never holds a working link. */
const hashToken = (token: string) => hash('sha256', token, 'base64url');

/** What other modules tell notifications once their write has committed. */
export interface NotificationSink {
  /** Publishes the bells that changed and sends or queues mail. Never throws: the write is saved. */
  notified(notified: Notified): Promise<void>;
}

/**
 * Notifications (issue: notifications and search §2, ADR 0017): the grouped list, the bell, the read marker,
 * settings, mail as it happens and in a daily digest, and one-click unsubscribe links.
 */
export class NotificationsService implements NotificationSink {
  #timer: NodeJS.Timeout | undefined;
  #sweeping: Promise<void> | undefined;
  /** Mail being prepared and sent after the writes that caused it answered. */
  readonly #inFlight = new Set<Promise<void>>();

  constructor(
    private readonly notifications: NotificationsRepository,
    private readonly presenter: NotificationPresenter,
    private readonly bus: EventBus,
    private readonly mailer: Mailer,
    private readonly config: Pick<Config, 'instanceName' | 'publicUrl'>,
    private readonly mediaUrl: (key: string) => string,
    private readonly log: Logger,
  ) {}

  /** A page of the viewer's notifications, newest group first. */
  async list(viewer: Viewer, query: NotificationQuery): Promise<Page<NotificationGroup>> {
    await this.writePendingLikes(viewer.uid);
    const heads = await this.notifications.heads(viewer.uid, {
      tab: query.tab,
      before: query.cursor,
      take: query.limit + 1,
    });
    const page = toPage(heads, query.limit, (head) => head.id);
    const groupKeys = [
      ...new Set(page.items.flatMap((head) => (head.groupKey === null ? [] : [head.groupKey]))),
    ];
    const [groups, lastReadId] = await Promise.all([
      this.notifications.groupActors(viewer.uid, groupKeys),
      this.notifications.lastReadId(viewer.uid),
    ]);
    const actorIds = new Set(page.items.map((head) => head.actorId));
    for (const group of groups.values()) for (const uid of group.actorIds) actorIds.add(uid);
    const postIds = new Set(page.items.flatMap((head) => (head.postId ? [head.postId] : [])));
    const commentIds = new Set(
      page.items.flatMap((head) => (head.commentId ? [head.commentId] : [])),
    );
    const subjectIds = (kinds: readonly NotificationKind[]) =>
      page.items.flatMap((head) =>
        head.subjectId !== null && kinds.includes(head.kind) ? [head.subjectId] : [],
      );
    const [authors, subjects, moderation] = await Promise.all([
      this.notifications.authors([...actorIds]),
      this.notifications.subjects([...postIds], [...commentIds]),
      this.notifications.moderationSubjects({
        actions: subjectIds(['warning', 'suspension', 'suspension_lifted', 'content_removed']),
        reports: subjectIds(['report_resolved', 'new_report']),
        appeals: subjectIds(['appeal_decided', 'new_appeal']),
      }),
    ]);
    return {
      items: this.presenter.groups({
        heads: page.items,
        groups,
        authors,
        lastReadId,
        moderation,
        ...subjects,
      }),
      nextCursor: page.nextCursor,
    };
  }

  /** The bell: unread groups (up to `limits.notifications.unreadCountMax`) and the newest id. */
  async unreadState(uid: string): Promise<UnreadState> {
    await this.writePendingLikes(uid);
    const { lastReadId, newestId } = await this.notifications.bellMarks(uid);
    const unread =
      newestId === null || BigInt(newestId) <= BigInt(lastReadId)
        ? 0
        : await this.notifications.unreadGroups(
            uid,
            lastReadId,
            limits.notifications.unreadCountMax,
          );
    return { unread, newestId };
  }

  /** Marks read up to `upTo` (everything when absent); every open tab of the account hears of it. */
  async markRead(viewer: Viewer, upTo: string | undefined): Promise<UnreadState> {
    // Marking everything read covers the likes that were pending until now.
    if (upTo === undefined) await this.writePendingLikes(viewer.uid);
    await this.notifications.markRead(viewer.uid, upTo);
    const state = await this.unreadState(viewer.uid);
    await this.bus.publish({ topic: notificationsTopic(viewer.uid), data: state });
    return state;
  }

  settings(viewer: Viewer): Promise<NotificationSettings> {
    return this.notifications.settings(viewer.uid);
  }

  /** Replaces the viewer's settings; they apply to what happens from now on. */
  async updateSettings(
    viewer: Viewer,
    settings: NotificationSettings,
  ): Promise<NotificationSettings> {
    await this.notifications.saveSettings(viewer.uid, settings);
    return settings;
  }

  /** What an unsubscribe link would stop; reading it changes nothing (mail scanners follow links). */
  async unsubscribeState(token: string): Promise<UnsubscribeState> {
    const record = await this.notifications.findUnsubscribeToken(hashToken(token));
    if (!record) throw unsubscribeNotFound();
    return { kind: record.kind, email: maskEmail(record.email), used: record.used };
  }

  /** Uses an unsubscribe link: its kind's mail (or the digest) stops. A link works once. */
  async unsubscribe(token: string): Promise<UnsubscribeState> {
    const tokenHash = hashToken(token);
    const record = await this.notifications.findUnsubscribeToken(tokenHash);
    if (!record) throw unsubscribeNotFound();
    const used = () => new Conflict('This unsubscribe link was already used.');
    if (record.used) throw used();
    const applied = await this.notifications.useUnsubscribeToken(
      tokenHash,
      record.userId,
      (settings) => withoutMail(settings, record.kind),
    );
    if (!applied) throw used();
    return { kind: record.kind, email: maskEmail(record.email), used: true };
  }

  async notified({ deliveries, withdrawn, pending = [] }: Notified): Promise<void> {
    const bells = new Set([...withdrawn, ...pending]);
    for (const delivery of deliveries) if (delivery.id !== null) bells.add(delivery.recipientId);
    await this.publishUnread([...bells]);
    if (deliveries.length === 0) return;
    // The bell is live before the answer; mail and upkeep follow it, so they never slow the write down.
    const task = this.afterwards(deliveries).finally(() => this.#inFlight.delete(task));
    this.#inFlight.add(task);
    if (this.#inFlight.size > notificationDelivery.mailInFlight) await task;
  }

  /** Mail for each delivery, and now and then a trim of its recipient's notifications. */
  private async afterwards(deliveries: readonly Delivery[]): Promise<void> {
    for (const delivery of deliveries) {
      await this.guarded('deliver a notification by mail', () => this.mail(delivery));
      if (delivery.id !== null) await this.pruneNow(delivery.recipientId, [delivery.id]);
    }
  }

  /**
   * Trims `uid`'s notifications when one of the ids just written to them is one in
   * `notificationDelivery.pruneOneIn`: about once per that many notifications of theirs.
   */
  private async pruneNow(uid: string, written: readonly string[]): Promise<void> {
    const oneIn = BigInt(notificationDelivery.pruneOneIn);
    if (!written.some((id) => BigInt(id) % oneIn === 0n)) return;
    await this.guarded('prune notifications', () =>
      this.notifications.pruneAccount(uid, limits.notifications.keepPerAccount),
    );
  }

  /**
   * Writes the notifications of `uid`'s likes that wait for their bell to be read (ADR 0055), before it is
   * read. Should that fail, the likes stay pending for the next read, and the bell answers without them.
   */
  private async writePendingLikes(uid: string): Promise<void> {
    await this.guarded('write the notifications of pending likes', async () => {
      await this.pruneNow(uid, await this.notifications.writePendingLikes(uid));
    });
  }

  /** Resolves once the mail started so far is handed to the mailer (on close, and for tests). */
  async idle(): Promise<void> {
    while (this.#inFlight.size > 0) await Promise.all([...this.#inFlight]);
  }

  /**
   * Tells each account's open tabs that its unread state changed, at most `notificationDelivery.fanOut` of
   * them. The state is read by the instances where such a tab is open, not here: most accounts have none
   * at the moment they are notified, and a burst of notifications makes one read, not one each.
   */
  async publishUnread(uids: readonly string[]): Promise<void> {
    const bounded = uids.slice(0, notificationDelivery.fanOut);
    for (let start = 0; start < bounded.length; start += publishBatch) {
      await Promise.all(
        bounded
          .slice(start, start + publishBatch)
          .map((uid) => this.bus.publishChanged({ topic: notificationsTopic(uid) })),
      );
    }
  }

  /**
   * Mail for one notification mailed as it happens: sent while the recipient's hourly allowance
   * (`notificationDelivery.immediatePerHour`) lasts, otherwise queued for the daily digest. (Digest kinds
   * were queued by the write itself.)
   */
  private async mail(delivery: Delivery): Promise<void> {
    if (delivery.email !== 'immediate' || !immediateEmailKinds.includes(delivery.kind)) return;
    if (
      await this.notifications.claimImmediateMail(
        delivery.recipientId,
        new Date(),
        hourMs,
        notificationDelivery.immediatePerHour,
      )
    ) {
      const recipient = (await this.notifications.mailRecipients([delivery.recipientId])).get(
        delivery.recipientId,
      );
      const [line] = await this.mailLines([delivery]);
      if (!recipient || !line) return;
      const token = await this.newToken(recipient.uid, delivery.kind);
      sendNotice(this.mailer, this.log, immediateMail(this.config, mailTo(recipient), line, token));
      return;
    }
    await this.notifications.queueForDigest(delivery);
  }

  /**
   * Sends every digest that is due: for each account with notifications waiting whose last digest is older
   * than `notificationDelivery.digestEveryMs`, claims it (so no other instance sends it too), empties its
   * queue and mails it. A mail that fails is logged and not retried: a digest goes at most once.
   */
  async sendDueDigests(now: Date = new Date()): Promise<number> {
    const sentBefore = new Date(now.getTime() - notificationDelivery.digestEveryMs);
    const due = await this.notifications.dueDigests(sentBefore, notificationDelivery.sweepBatch);
    let sent = 0;
    for (const uid of due) {
      if (!(await this.notifications.claimDigest(uid, now, sentBefore))) continue;
      const { items, total } = await this.notifications.digestQueue(
        uid,
        notificationDelivery.digestItems,
      );
      const newest = items[0];
      if (!newest) continue;
      await this.notifications.clearDigest(uid, newest.id);
      const lines = await this.mailLines(items);
      const recipient = (await this.notifications.mailRecipients([uid])).get(uid);
      if (!recipient || lines.length === 0) continue;
      const token = await this.newToken(uid, null);
      const more = total - items.length;
      sendNotice(
        this.mailer,
        this.log,
        digestMail(this.config, mailTo(recipient), lines, more, token),
      );
      sent += 1;
    }
    return sent;
  }

  /** Sends due digests and deletes what is past `limits.notifications.keepDays`. */
  async sweep(now: Date = new Date()): Promise<void> {
    await this.guarded('send the daily digests', async () => {
      const sent = await this.sendDueDigests(now);
      if (sent > 0) this.log.info({ sent }, 'sent notification digests');
    });
    await this.guarded('delete old notifications', async () => {
      const before = new Date(now.getTime() - limits.notifications.keepDays * 24 * hourMs);
      for (let batch = 0; batch < pruneBatchesPerSweep; batch += 1) {
        const deleted = await this.notifications.pruneOlderThan(
          before,
          notificationDelivery.sweepBatch,
        );
        if (deleted < notificationDelivery.sweepBatch) break;
      }
    });
  }

  /** Sweeps every `notificationDelivery.sweepEveryMs` until close(). */
  start(): void {
    this.#timer = setInterval(() => {
      this.#sweeping = this.sweep();
    }, notificationDelivery.sweepEveryMs);
    this.#timer.unref();
  }

  /** Stops the sweep and waits for it and for mail under way. */
  async close(): Promise<void> {
    clearInterval(this.#timer);
    await this.#sweeping;
    await this.idle();
  }

  /** Mail lines for notifications whose actor and text still exist, in three queries. */
  private async mailLines(
    causes: readonly (NotificationCause & { kind: NotificationKind })[],
  ): Promise<MailLine[]> {
    const postIds = new Set(causes.flatMap((cause) => (cause.postId ? [cause.postId] : [])));
    const commentIds = new Set(
      causes.flatMap((cause) => (cause.commentId ? [cause.commentId] : [])),
    );
    const [authorRows, subjects] = await Promise.all([
      this.notifications.authors([...new Set(causes.map((cause) => cause.actorId))]),
      this.notifications.subjects([...postIds], [...commentIds]),
    ]);
    const authors = new Map(
      authorRows.map((row) => [row.authorUid, presentAuthor(row, this.mediaUrl)]),
    );
    return causes.flatMap((cause) => {
      const actor = authors.get(cause.actorId);
      const post = cause.postId === null ? undefined : subjects.posts.get(cause.postId);
      const comment = cause.commentId === null ? undefined : subjects.comments.get(cause.commentId);
      if (!actor) return [];
      if (cause.postId !== null && post === undefined) return [];
      if (cause.commentId !== null && comment === undefined) return [];
      const text = comment?.body ?? post ?? '';
      return [
        {
          kind: cause.kind,
          actor: nameInMail(actor),
          inComment: comment !== undefined,
          excerpt: excerptOf(text),
          url: notificationUrl(this.config.publicUrl, {
            postId: cause.postId,
            actorUsername: actor.username,
          }),
        },
      ];
    });
  }

  /** A new unsubscribe token: 32 random bytes in the link, only their hash kept. */
  private async newToken(uid: string, kind: NotificationKind | null): Promise<string> {
    const token = randomBytes(32).toString('base64url');
    await this.notifications.createUnsubscribeToken(hashToken(token), uid, kind);
    return token;
  }

  /** Runs work whose failure must not fail a committed write: it is logged instead. */
  private async guarded(what: string, work: () => Promise<void>): Promise<void> {
    try {
      await work();
    } catch (error) {
      this.log.warn({ err: error }, `could not ${what}`);
    }
  }
}

function mailTo(recipient: MailRecipient): { email: string; name: string } {
  return { email: recipient.email, name: displayNameOf(recipient) };
}
