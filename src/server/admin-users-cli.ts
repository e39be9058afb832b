import { parseArgs } from 'node:util';
import type { Logger } from 'pino';
import { moderationTextLimits } from '../shared/schemas/moderation.js';
import { roleSchema } from '../shared/schemas/user.js';
import { createAuth } from './auth/auth.js';
import { SessionCache } from './auth/session-cache.js';
import type { Config } from './config.js';
import type { DatabaseHandle } from './db/database.js';
import type { EventBus } from './events/bus.js';
import { createMailer } from './mail/mailer.js';
import { PendingUploadsRepository } from './media/pending-uploads.repository.js';
import type { MediaStorage } from './media/storage.js';
import { MediaUploads } from './media/stored-image.js';
import { AccountRepository } from './modules/account/account.repository.js';
import { AccountService } from './modules/account/account.service.js';
import { AdminUsersRepository } from './modules/admin-users/admin-users.repository.js';
import { UsersAdminService, type StaffActor } from './modules/admin-users/admin-users.service.js';
import { AuditLogRepository, operatorActor } from './modules/moderation/audit-log.repository.js';
import { NotificationPresenter } from './modules/notifications/notifications.presenter.js';
import { NotificationsRepository } from './modules/notifications/notifications.repository.js';
import { NotificationsService } from './modules/notifications/notifications.service.js';
import { PostPresenter } from './modules/posts/posts.presenter.js';
import { PostsRepository } from './modules/posts/posts.repository.js';
import { PostsService } from './modules/posts/posts.service.js';
import { RelationshipsRepository } from './modules/relationships/relationships.repository.js';
import { RelationshipsService } from './modules/relationships/relationships.service.js';
import type { UsersRepository } from './modules/users/users.repository.js';
import type { UsersService } from './modules/users/users.service.js';

/** The operator, who outranks everyone; the last-administrator rule still holds. */
export const operator: StaffActor = { ...operatorActor, role: 'admin', operator: true };

/** A mistake in how a command was called. */
export class CommandUsageError extends Error {}

/** The users-administration commands' usage lines (in the CLI's help). */
export const adminUsersUsage = `  users approve <username>                      approve a sign-up waiting for approval (mails them)
  users reject <username> --reason TEXT         reject a sign-up (mails the reason) and delete it
  users sign-out <username>                     end every session of an account
  users delete <username> --reason TEXT         delete an account with everything it made`;

/**
 * The console's service for the command line: the same authorisation, audit entries, mail, live updates
 * and account-deletion fan-out as the web console, acting as the operator.
 */
export function createUsersAdmin(options: {
  config: Config;
  database: DatabaseHandle;
  bus: EventBus;
  storage: MediaStorage;
  users: UsersService;
  usersRepository: UsersRepository;
  log: Logger;
}): UsersAdminService {
  const { config, database, bus, storage, users, usersRepository, log } = options;
  const db = database.db;
  const mediaUrl = (key: string) => storage.url(key);
  const mailer = createMailer(config, log);
  const sessions = new SessionCache(bus, log);
  const auth = createAuth({
    config,
    db,
    dialect: database.dialect,
    hooks: { sendPasswordReset: () => Promise.resolve() },
  });
  const notifications = new NotificationsService(
    new NotificationsRepository(db),
    new NotificationPresenter(mediaUrl),
    bus,
    mailer,
    config,
    mediaUrl,
    log,
  );
  const relationships = new RelationshipsService(
    new RelationshipsRepository(db),
    users,
    bus,
    mediaUrl,
    notifications,
    log,
  );
  const posts = new PostsService(
    new PostsRepository(db),
    new PostPresenter(mediaUrl),
    users,
    bus,
    new MediaUploads(storage, new PendingUploadsRepository(db), log),
    log,
    notifications,
    relationships,
  );
  const account = new AccountService(
    auth,
    config,
    new AccountRepository(db),
    usersRepository,
    users,
    posts,
    storage,
    mailer,
    log,
    sessions,
    notifications,
  );
  return new UsersAdminService({
    repository: new AdminUsersRepository(db, new AuditLogRepository(db)),
    publishUser: (uid) => users.publish(uid),
    sessionsEnded: (ended) => sessions.sessionsEnded(ended),
    deleteAccount: (uid) => account.removeAccount(uid),
    sendResetLink: async (email) => {
      await auth.api.requestPasswordReset({ body: { email } });
    },
    mailer,
    log,
    config,
    mediaUrl,
  });
}

function reasonOf(args: string[]): { username: string; reason: string } {
  const { values, positionals } = parseArgs({
    args,
    options: { reason: { type: 'string' } },
    allowPositionals: true,
    strict: true,
  });
  const username = positionals[0];
  if (!username) throw new CommandUsageError('missing username');
  const reason = values.reason?.trim();
  if (!reason) throw new CommandUsageError('--reason is required');
  if (reason.length > moderationTextLimits.reason) {
    throw new CommandUsageError(`--reason takes at most ${moderationTextLimits.reason} characters`);
  }
  return { username, reason };
}

function usernameOf(args: string[]): string {
  const username = args[0];
  if (!username) throw new CommandUsageError('missing username');
  return username;
}

const describeRole = (role: string) =>
  role === 'admin' ? 'an administrator' : role === 'moderator' ? 'a moderator' : 'a user';

/**
 * Runs one of the users-administration commands and answers the line to print, or null when `command` is
 * not one of them. `set-role` and `set-active` go through the console's service too, so they are audited
 * and authorised.
 */
export async function runAdminUsersCommand(
  admin: () => UsersAdminService,
  command: string | undefined,
  args: string[],
): Promise<string | null> {
  switch (command) {
    case 'approve': {
      const username = usernameOf(args);
      const service = admin();
      await service.approve(operator, await service.uidOf(username));
      return `@${username.toLowerCase()} is approved and has been emailed.`;
    }
    case 'reject': {
      const { username, reason } = reasonOf(args);
      const service = admin();
      await service.reject(operator, await service.uidOf(username), reason);
      return `@${username.toLowerCase()} was rejected, emailed and deleted.`;
    }
    case 'sign-out': {
      const username = usernameOf(args);
      const service = admin();
      await service.signOutEverywhere(operator, await service.uidOf(username));
      return `@${username.toLowerCase()} is signed out everywhere.`;
    }
    case 'delete': {
      const { username, reason } = reasonOf(args);
      const service = admin();
      await service.delete(operator, await service.uidOf(username), reason);
      return `@${username.toLowerCase()} and everything they made are deleted.`;
    }
    case 'set-role': {
      const username = usernameOf(args);
      const role = roleSchema.safeParse(args[1]);
      if (!role.success) throw new CommandUsageError('the role is user, moderator or admin');
      const service = admin();
      await service.setRole(operator, await service.uidOf(username), role.data);
      return `@${username.toLowerCase()} is now ${describeRole(role.data)}.`;
    }
    case 'set-active': {
      const username = usernameOf(args);
      const value = args[1];
      if (value !== 'true' && value !== 'false') {
        throw new CommandUsageError(
          `expected true or false, got ${value === undefined ? 'nothing' : `"${value}"`}`,
        );
      }
      const service = admin();
      await service.setActive(operator, await service.uidOf(username), value === 'true');
      return `@${username.toLowerCase()} is now ${value === 'true' ? 'active' : 'inactive'}.`;
    }
    default:
      return null;
  }
}
