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
}
