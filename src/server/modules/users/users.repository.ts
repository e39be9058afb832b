import type { Kysely, Selectable } from 'kysely';
import type { Database, UsersTable } from '../../db/schema.js';

export type UserRow = Selectable<UsersTable>;

/** The only place that reads and writes the users table. */
export class UsersRepository {
  constructor(private readonly db: Kysely<Database>) {}

  findById(uid: string): Promise<UserRow | undefined> {
    return this.db.selectFrom('users').selectAll().where('id', '=', uid).executeTakeFirst();
  }

  /** Usernames are stored lowercase (issue: accounts), so an equality lookup is case-insensitive. */
  findByUsername(username: string): Promise<UserRow | undefined> {
    return this.db
      .selectFrom('users')
      .selectAll()
      .where('username', '=', username.toLowerCase())
      .executeTakeFirst();
  }

  findByEmail(email: string): Promise<UserRow | undefined> {
    return this.db
      .selectFrom('users')
      .selectAll()
      .where('email', '=', email.toLowerCase())
      .executeTakeFirst();
  }

  /** Users by join date, oldest first. */
  list(limit: number, offset: number): Promise<UserRow[]> {
    return this.db
      .selectFrom('users')
      .selectAll()
      .orderBy('createdAt', 'asc')
      .orderBy('id', 'asc')
      .limit(limit)
      .offset(offset)
      .execute();
  }

  async update(
    uid: string,
    changes: Partial<Pick<UserRow, 'role' | 'active'>>,
  ): Promise<UserRow | undefined> {
    await this.db
      .updateTable('users')
      .set({ ...changes, updatedAt: new Date().toISOString() })
      .where('id', '=', uid)
      .execute();
    return this.findById(uid);
  }
}
