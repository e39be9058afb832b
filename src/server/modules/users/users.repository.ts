import type { Kysely, Selectable, Transaction } from 'kysely';
import { mentionedUsernames } from '../../../shared/mentions.js';
import { prepare } from '../../db/prepared.js';
import type { Database, UsersTable } from '../../db/schema.js';
import { toActive, toIdOrNull, toIsoString, toIsoStringOrNull } from '../../db/values.js';

export type UserRow = Selectable<UsersTable>;

type Timestamps =
  | 'createdAt'
  | 'updatedAt'
  | 'usernameChangedAt'
  | 'banExpires'
  | 'suspendedAt'
  | 'suspendedUntil'
  | 'lastActiveAt';

/** A user with its profile images' renditions and alt texts; its timestamps as ISO-8601 text. */
export interface UserRecord extends Omit<
  UserRow,
  Timestamps | 'active' | 'awaitingApproval' | 'suspensionActionId'
> {
  active: boolean;
  awaitingApproval: boolean;
  createdAt: string;
  updatedAt: string;
  usernameChangedAt: string | null;
  banExpires: string | null;
  suspendedAt: string | null;
  suspendedUntil: string | null;
  suspensionActionId: string | null;
  lastActiveAt: string | null;
  avatarRenditions: string | null;
  avatarAlt: string | null;
  coverRenditions: string | null;
  coverAlt: string | null;
  /** The existing accounts the bio mentions, as of this read. */
  bioMentions: string[];
}

/** A user as either dialect reads it, before its timestamps take one shape (db/values.ts). */
type StoredUser = Omit<
  UserRecord,
  Timestamps | 'active' | 'awaitingApproval' | 'suspensionActionId' | 'bioMentions'
> &
  Pick<UserRow, Timestamps | 'active' | 'awaitingApproval' | 'suspensionActionId'>;

const toUserRecord = (row: StoredUser, bioMentions: string[]): UserRecord => ({
  ...row,
  bioMentions,
  active: toActive(row.active),
  awaitingApproval: Boolean(row.awaitingApproval),
  createdAt: toIsoString(row.createdAt),
  updatedAt: toIsoString(row.updatedAt),
  usernameChangedAt: toIsoStringOrNull(row.usernameChangedAt),
  banExpires: toIsoStringOrNull(row.banExpires),
  suspendedAt: toIsoStringOrNull(row.suspendedAt),
  suspendedUntil: toIsoStringOrNull(row.suspendedUntil),
  suspensionActionId: toIdOrNull(row.suspensionActionId),
  lastActiveAt: toIsoStringOrNull(row.lastActiveAt),
});

/** Names per IN list: far below either dialect's limit on bound parameters. */
const namesPerQuery = 500;

/**
 * Records of stored users, each with the mentioned accounts of its bio that exist now: one query for all
 * of them, none when no bio mentions anyone. Read, never stored, so a mention links once its account
 * exists and stops when it is gone.
 */
async function toUserRecords(
  db: Kysely<Database>,
  rows: readonly StoredUser[],
): Promise<UserRecord[]> {
  const mentioned = rows.map((row) => (row.bio ? mentionedUsernames(row.bio) : []));
  const wanted = [...new Set(mentioned.flat())];
  const existing = new Set<string>();
  for (let start = 0; start < wanted.length; start += namesPerQuery) {
    const found = await db
      .selectFrom('users')
      .select('username')
      .where('username', 'in', wanted.slice(start, start + namesPerQuery))
      .execute();
    for (const { username } of found) if (username) existing.add(username);
  }
  return rows.map((row, index) =>
    toUserRecord(
      row,
      (mentioned[index] ?? []).filter((name) => existing.has(name)),
    ),
  );
}

/** Users with their avatar and cover, in one query. */
function userRecords(db: Kysely<Database>) {
  return db
    .selectFrom('users')
    .leftJoin('media as avatar', 'avatar.id', 'users.avatarMediaId')
    .leftJoin('media as cover', 'cover.id', 'users.coverMediaId')
    .selectAll('users')
    .select([
      'avatar.renditions as avatarRenditions',
      'avatar.alt as avatarAlt',
      'cover.renditions as coverRenditions',
      'cover.alt as coverAlt',
    ]);
}

/**
 * Users as a write's own transaction sees them once it has changed their counts: what the write publishes,
 * so nothing is read again after the commit (ADR 0013). Users that are gone are left out.
 */
export async function readUserRecords(
  trx: Transaction<Database>,
  uids: readonly string[],
): Promise<UserRecord[]> {
  const rows = await userRecords(trx)
    .where('users.id', 'in', [...uids])
    .execute();
  return toUserRecords(trx, rows);
}

/**
 * `readUserRecords` for one user, its query compiled once for `db` and run on `runner`: a new post reads
 * its author's record in its transaction, or after its one statement on PostgreSQL (the second busiest
 * write, ADRs 0029 and 0048).
 */
export function userRecordReader(db: Kysely<Database>) {
  const query = prepare(db, (p: { uid: string }) => userRecords(db).where('users.id', '=', p.uid));
  return async (runner: Kysely<Database>, uid: string): Promise<UserRecord | undefined> => {
    const [record] = await toUserRecords(runner, await query.execute({ uid }, runner));
    return record;
  };
}

/** The only place that reads and writes the users table. */
export class UsersRepository {
  constructor(private readonly db: Kysely<Database>) {}

  /** Users with their avatar and cover, in one query. */
  private records() {
    return userRecords(this.db);
  }

  async findById(uid: string): Promise<UserRecord | undefined> {
    const row = await this.records().where('users.id', '=', uid).executeTakeFirst();
    return row && (await toUserRecords(this.db, [row]))[0];
  }

  /** Many users in one query; ids of users that are gone are left out. */
  async findByIds(uids: readonly string[]): Promise<UserRecord[]> {
    if (uids.length === 0) return [];
    const rows = await this.records()
      .where('users.id', 'in', [...uids])
      .execute();
    return toUserRecords(this.db, rows);
  }

  /** What an authenticated request needs of its user: no profile columns, no image joins. */
  async findStanding(uid: string): Promise<
    | (Pick<UserRow, 'id' | 'role'> & {
        active: boolean;
        suspendedAt: string | null;
        suspendedUntil: string | null;
      })
    | undefined
  > {
    const row = await this.db
      .selectFrom('users')
      .select(['id', 'role', 'active', 'suspendedAt', 'suspendedUntil'])
      .where('id', '=', uid)
      .executeTakeFirst();
    return (
      row && {
        ...row,
        active: toActive(row.active),
        suspendedAt: toIsoStringOrNull(row.suspendedAt),
        suspendedUntil: toIsoStringOrNull(row.suspendedUntil),
      }
    );
  }

  /** Usernames are stored lowercase (issue: accounts), so an equality lookup is case-insensitive. */
  async findByUsername(username: string): Promise<UserRecord | undefined> {
    const row = await this.records()
      .where('users.username', '=', username.toLowerCase())
      .executeTakeFirst();
    return row && (await toUserRecords(this.db, [row]))[0];
  }

  async findByEmail(email: string): Promise<UserRecord | undefined> {
    const row = await this.records()
      .where('users.email', '=', email.toLowerCase())
      .executeTakeFirst();
    return row && (await toUserRecords(this.db, [row]))[0];
  }

  /** Users by join date, oldest first. */
  async list(limit: number, offset: number): Promise<UserRecord[]> {
    const rows = await this.records()
      .orderBy('users.createdAt', 'asc')
      .orderBy('users.id', 'asc')
      .limit(limit)
      .offset(offset)
      .execute();
    return toUserRecords(this.db, rows);
  }

  async update(
    uid: string,
    changes: Partial<Pick<UserRow, 'role' | 'active'>>,
  ): Promise<UserRecord | undefined> {
    await this.db
      .updateTable('users')
      .set({ ...changes, updatedAt: new Date().toISOString() })
      .where('id', '=', uid)
      .execute();
    return this.findById(uid);
  }

  /** True when another account holds `username`, or it is still reserved after a rename or deletion. */
  async isUsernameHeld(username: string, exceptUserId?: string): Promise<boolean> {
    const now = new Date().toISOString();
    const [owner, released] = await Promise.all([
      this.db.selectFrom('users').select('id').where('username', '=', username).executeTakeFirst(),
      this.db
        .selectFrom('released_usernames')
        .select(['userId'])
        .where('username', '=', username)
        .where('reservedUntil', '>', now)
        .executeTakeFirst(),
    ]);
    if (owner && owner.id !== exceptUserId) return true;
    return Boolean(released && (released.userId === null || released.userId !== exceptUserId));
  }

  /** The account an old username now redirects to, while its reservation lasts. */
  async redirectFor(username: string): Promise<string | null> {
    const row = await this.db
      .selectFrom('released_usernames')
      .select('userId')
      .where('username', '=', username)
      .where('reservedUntil', '>', new Date().toISOString())
      .executeTakeFirst();
    return row?.userId ?? null;
  }
}
