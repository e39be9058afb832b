import { parseArgs } from 'node:util';
import type { Logger } from 'pino';
import { moderationTextLimits } from '../shared/schemas/moderation.js';
import { suspensionDurationSchema } from '../shared/schemas/report.js';
import type { Config } from './config.js';
import type { DatabaseHandle } from './db/database.js';
import type { EventBus } from './events/bus.js';
import { NotFound } from './errors.js';
import { createMailer } from './mail/mailer.js';
import type { MediaStorage } from './media/storage.js';
import { AuditLogRepository } from './modules/moderation/audit-log.repository.js';
import { ModerationRepository } from './modules/moderation/moderation.repository.js';
import {
  ModerationService,
  operatorModerationActor as operator,
} from './modules/moderation/moderation.service.js';
import { NotificationPresenter } from './modules/notifications/notifications.presenter.js';
import { NotificationsRepository } from './modules/notifications/notifications.repository.js';
import { NotificationsService } from './modules/notifications/notifications.service.js';
import type { UsersService } from './modules/users/users.service.js';

/** The moderation commands' lines of the command line's usage. */
export const moderationUsage = `  reports list [--status open|resolved]         list reported things, newest report first
  reports dismiss <reportId> --reason TEXT      close every open report of that report's target
  users suspend <username> --for 1d|3d|7d|30d|indefinite --reason TEXT
                                                suspend an account (it can still sign in, read and appeal)
  users unsuspend <username> --reason TEXT      lift a suspension in force
  users warn <username> --reason TEXT           send a warning by notification and mail`;

/** A mistake in how a moderation command was called. */
export class ModerationUsageError extends Error {}

/**
 * Moderation for the command line: the same service, audit entries, notifications, mail and live updates
 * as the console, acting as the operator (above every role).
 */
export function createModeration(options: {
  config: Config;
  database: DatabaseHandle;
  bus: EventBus;
  storage: MediaStorage;
  users: UsersService;
  log: Logger;
}): ModerationService {
  const { config, database, bus, storage, users, log } = options;
  const db = database.db;
  const mediaUrl = (key: string) => storage.url(key);
  const mailer = createMailer(config, log);
  const notifications = new NotificationsService(
    new NotificationsRepository(db),
    new NotificationPresenter(mediaUrl),
    bus,
    mailer,
    config,
    mediaUrl,
    log,
  );
  return new ModerationService({
    repository: new ModerationRepository(db, new AuditLogRepository(db)),
    notifications,
    bus,
    mailer,
    log,
    config,
    mediaUrl,
    publishUser: (uid) => users.publish(uid),
    // The web server republishes the post when its page is next read; the feed hears of it then.
    publishPost: () => Promise.resolve(),
  });
}

function parsed(args: string[], options: Record<string, { type: 'string' }>) {
  try {
    return parseArgs({ args, options, allowPositionals: true, strict: true });
  } catch (error) {
    throw new ModerationUsageError(error instanceof Error ? error.message : String(error));
  }
}

function reasonOf(values: Record<string, string | boolean | undefined>): string {
  const reason = typeof values.reason === 'string' ? values.reason.trim() : '';
  if (!reason) throw new ModerationUsageError('--reason is required');
  if (reason.length > moderationTextLimits.reason) {
    throw new ModerationUsageError(
      `--reason takes at most ${moderationTextLimits.reason} characters`,
    );
  }
  return reason;
}

async function uidOf(moderation: ModerationService, username: string | undefined): Promise<string> {
  if (!username) throw new ModerationUsageError('missing username');
  const user = await moderation.userByUsername(username);
  if (!user) throw new NotFound(`There is no user called @${username.toLowerCase()}.`);
  return user.id;
}

/**
 * Runs one moderation command and answers the lines to print, or null when it is not one of them.
 * `group` is `reports` or `users`.
 */
export async function runModerationCommand(
  moderation: () => ModerationService,
  group: string | undefined,
  command: string | undefined,
  args: string[],
): Promise<string | null> {
  if (group === 'reports' && command === 'list') {
    const { values } = parsed(args, { status: { type: 'string' } });
    const status = values.status ?? 'open';
    if (status !== 'open' && status !== 'resolved') {
      throw new ModerationUsageError('--status takes open or resolved');
    }
    const page = await moderation().queue({ status, limit: 50 });
    if (page.items.length === 0) return `No ${status} reports.`;
    return page.items
      .map((group) => {
        const reasons = [...new Set(group.reports.map((report) => report.reason))].join(', ');
        const author = group.snapshot.author.username ?? group.snapshot.author.uid;
        return `${group.reports[0]?.id ?? group.id}\t${group.targetKind} ${group.targetId} by @${author}\t${group.reportCount} report(s): ${reasons}\t${group.contentState}`;
      })
      .join('\n');
  }
  if (group === 'reports' && command === 'dismiss') {
    const { values, positionals } = parsed(args, { reason: { type: 'string' } });
    const reportId = positionals[0];
    if (!reportId || !/^\d{1,18}$/.test(reportId))
      throw new ModerationUsageError('missing report id');
    const reason = reasonOf(values);
    const service = moderation();
    const report = await service.reportById(reportId);
    if (!report) throw new NotFound('There is no such report.');
    const result = await service.resolve(operator, {
      targetKind: report.targetKind,
      targetId: report.targetId,
      action: 'dismiss',
      reason,
    });
    return `Dismissed ${result.closed} open report(s) of that ${report.targetKind}.`;
  }
  if (group !== 'users') return null;
  switch (command) {
    case 'suspend': {
      const { values, positionals } = parsed(args, {
        for: { type: 'string' },
        reason: { type: 'string' },
      });
      const duration = suspensionDurationSchema.safeParse(values.for);
      if (!duration.success) {
        throw new ModerationUsageError('--for takes 1d, 3d, 7d, 30d or indefinite');
      }
      const reason = reasonOf(values);
      const service = moderation();
      const state = await service.suspend(
        operator,
        await uidOf(service, positionals[0]),
        reason,
        duration.data,
      );
      return `@${(positionals[0] ?? '').toLowerCase()} is suspended ${state.until ? `until ${state.until}` : 'indefinitely'}.`;
    }
    case 'unsuspend': {
      const { values, positionals } = parsed(args, { reason: { type: 'string' } });
      const reason = reasonOf(values);
      const service = moderation();
      await service.lift(operator, await uidOf(service, positionals[0]), reason);
      return `@${(positionals[0] ?? '').toLowerCase()} is no longer suspended.`;
    }
    case 'warn': {
      const { values, positionals } = parsed(args, { reason: { type: 'string' } });
      const reason = reasonOf(values);
      const service = moderation();
      await service.warn(operator, await uidOf(service, positionals[0]), reason);
      return `@${(positionals[0] ?? '').toLowerCase()} was warned.`;
    }
    default:
      return null;
  }
}
