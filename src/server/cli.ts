import { parseArgs } from 'node:util';
import pino from 'pino';
import { createAuth } from './auth/auth.js';
import { ConfigError, loadConfig, type Config } from './config.js';
import { openDatabase, type DatabaseHandle } from './db/database.js';
import { migrateToLatest } from './db/migrator.js';
import type { EventBus } from './events/bus.js';
import { SocketForwardingBus } from './events/local-socket.js';
import { RedisEventBus } from './events/redis-bus.js';
import { DomainError } from './errors.js';
import {
  adminUsersUsage,
  CommandUsageError,
  createUsersAdmin,
  runAdminUsersCommand,
} from './admin-users-cli.js';
import type { UsersAdminService } from './modules/admin-users/admin-users.service.js';
import {
  createModeration,
  ModerationUsageError,
  moderationUsage,
  runModerationCommand,
} from './moderation-cli.js';
import type { ModerationService } from './modules/moderation/moderation.service.js';
import { createStorage } from './media/storage.js';
import { UserPresenter } from './modules/users/users.presenter.js';
import { UsersRepository } from './modules/users/users.repository.js';
import { UsersService } from './modules/users/users.service.js';

const usage = `Usage: npm run cli -- <command>

Commands:
  users list [--limit N] [--offset N]          list accounts, oldest first
  users set-role <username> user|moderator|admin  change an account's role (never the last administrator's)
  users set-active <username> true|false        activate or deactivate an account (ends its sessions)
${adminUsersUsage}
${moderationUsage}
  users reset-link <username>                   print a one-time password-reset link (valid 1 hour)

Uses the same DATA_DIR / DATABASE_URL / REDIS_URL as the server; changes reach open browsers live.
Changes to accounts are recorded in the audit log as done by the operator.`;

/** A mistake in how the command was called: one line, then exit 2. */
class UsageError extends Error {}

interface Context {
  config: Config;
  database: DatabaseHandle;
  users: UsersService;
  /** The console's actions, as the operator; built only for the commands that use them. */
  usersAdmin: () => UsersAdminService;
  /** Reports and suspensions, as the operator. */
  moderation: () => ModerationService;
}

function requireArg(value: string | undefined, what: string): string {
  if (!value) throw new UsageError(`missing ${what}`);
  return value;
}

function parseCount(value: string | undefined, name: string, fallback: number): number {
  if (value === undefined) return fallback;
  const number = Number(value);
  if (!Number.isInteger(number) || number < 0)
    throw new UsageError(`--${name} takes a whole number`);
  return number;
}

async function listUsers(context: Context, args: string[]): Promise<void> {
  const { values } = parseArgs({
    args,
    options: { limit: { type: 'string' }, offset: { type: 'string' } },
    strict: true,
  });
  const rows = await context.users.listRows(
    parseCount(values.limit, 'limit', 100),
    parseCount(values.offset, 'offset', 0),
  );
  if (rows.length === 0) {
    console.log('No users yet.');
    return;
  }
  const table = rows.map((row) => ({
    username: row.username ?? '(none)',
    email: row.email,
    role: row.role ?? 'user',
    active: row.active ? 'yes' : 'no',
    joined: row.createdAt.slice(0, 10),
  }));
  const columns = ['username', 'email', 'role', 'active', 'joined'] as const;
  const widths = columns.map((column) =>
    Math.max(column.length, ...table.map((row) => row[column].length)),
  );
  const line = (cells: readonly string[]) =>
    cells
      .map((cell, index) => cell.padEnd(widths[index] ?? 0))
      .join('  ')
      .trimEnd();
  console.log(line(columns));
  for (const row of table) console.log(line(columns.map((column) => row[column])));
}

async function resetLink(context: Context, username: string): Promise<void> {
  const row = await context.users.requireRowByUsername(username);
  let captured: string | undefined;
  const auth = createAuth({
    config: context.config,
    db: context.database.db,
    dialect: context.database.dialect,
    hooks: {
      sendPasswordReset: (_user, token) => {
        captured = token;
        return Promise.resolve();
      },
    },
  });
  await auth.api.requestPasswordReset({ body: { email: row.email } });
  if (!captured) throw new Error('no reset token was issued');
  console.log(`${context.config.publicUrl}/reset-password?token=${encodeURIComponent(captured)}`);
}

async function run(context: Context, argv: string[]): Promise<void> {
  const [group, command, ...rest] = argv;
  const moderated = await runModerationCommand(context.moderation, group, command, rest);
  if (moderated !== null) {
    console.log(moderated);
    return;
  }
  if (group !== 'users')
    throw new UsageError(group ? `unknown command "${group}"` : 'no command given');
  const done = await runAdminUsersCommand(context.usersAdmin, command, rest);
  if (done !== null) {
    console.log(done);
    return;
  }
  switch (command) {
    case 'list':
      return listUsers(context, rest);
    case 'reset-link':
      return resetLink(context, requireArg(rest[0], 'username'));
    case undefined:
      throw new UsageError('missing users command');
    default:
      throw new UsageError(`unknown users command "${command}"`);
  }
}

async function main(): Promise<number> {
  const argv = process.argv.slice(2);
  if (argv[0] === '--help' || argv[0] === 'help') {
    console.log(usage);
    return 0;
  }
  // A usage mistake is one line on stderr and exit 2, like every other one (scripts read stderr).
  if (argv.length === 0) throw new UsageError('no command given');
  const config = loadConfig();
  const database = openDatabase({ ...config, poolSize: 2 });
  const log = pino({ level: 'silent' });
  let bus: EventBus | undefined;
  try {
    await migrateToLatest(database.db);
    bus = config.redisUrl
      ? await RedisEventBus.connect(config.redisUrl, config.redisPrefix, log)
      : new SocketForwardingBus(config.dataDir);
    const storage = await createStorage(config);
    const usersRepository = new UsersRepository(database.db);
    const users = new UsersService(
      usersRepository,
      bus,
      new UserPresenter((key) => storage.url(key)),
    );
    const eventBus = bus;
    let usersAdmin: UsersAdminService | undefined;
    const admin = () =>
      (usersAdmin ??= createUsersAdmin({
        config,
        database,
        bus: eventBus,
        storage,
        users,
        usersRepository,
        log,
      }));
    let moderationService: ModerationService | undefined;
    const moderation = () =>
      (moderationService ??= createModeration({
        config,
        database,
        bus: eventBus,
        storage,
        users,
        log,
      }));
    await run({ config, database, users, usersAdmin: admin, moderation }, argv);
    return 0;
  } finally {
    await bus?.close();
    await database.close();
  }
}

main().then(
  (code) => {
    process.exitCode = code;
  },
  (error: unknown) => {
    if (
      error instanceof UsageError ||
      error instanceof CommandUsageError ||
      error instanceof ModerationUsageError ||
      (error instanceof TypeError && 'code' in error)
    ) {
      console.error(`hearth: ${error.message} (see npm run cli -- --help)`);
      process.exitCode = 2;
    } else if (error instanceof DomainError || error instanceof ConfigError) {
      console.error(`hearth: ${error.message}`);
      process.exitCode = 1;
    } else {
      console.error(`hearth: ${error instanceof Error ? error.message : String(error)}`);
      process.exitCode = 1;
    }
  },
);
