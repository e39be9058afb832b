import type { Kysely, Selectable } from 'kysely';
import type { Database, UsersTable } from '../../db/schema.js';

export type UserRow = Selectable<UsersTable>;

/** A user row with its profile images' renditions and alt texts. */
export interface UserRecord extends UserRow {
  avatarRenditions: string | null;
  avatarAlt: string | null;
  coverRenditions: string | null;
  coverAlt: string | null;
}

/** The only place that reads and writes the users table. */
export class UsersRepository {
  constructor(private readonly db: Kysely<Database>) {}

  /** Users with their avatar and cover, in one query. */
  private records() {
    return this.db
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

  findById(uid: string): Promise<UserRecord | undefined> {
    return this.records().where('users.id', '=', uid).executeTakeFirst();
  }

  /** What an authenticated request needs of its user: no profile columns, no image joins. */
  findStanding(uid: string): Promise<Pick<UserRow, 'id' | 'role' | 'active'> | undefined> {
    return this.db
      .selectFrom('users')
      .select(['id', 'role', 'active'])
      .where('id', '=', uid)
      .executeTakeFirst();
  }

  /** Usernames are stored lowercase (issue: accounts), so an equality lookup is case-insensitive. */
  findByUsername(username: string): Promise<UserRecord | undefined> {
    return this.records().where('users.username', '=', username.toLowerCase()).executeTakeFirst();
  }

  findByEmail(email: string): Promise<UserRecord | undefined> {
    return this.records().where('users.email', '=', email.toLowerCase()).executeTakeFirst();
  }

  /** Users by join date, oldest first. */
  list(limit: number, offset: number): Promise<UserRecord[]> {
    return this.records()
      .orderBy('users.createdAt', 'asc')
      .orderBy('users.id', 'asc')
      .limit(limit)
      .offset(offset)
      .execute();
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
