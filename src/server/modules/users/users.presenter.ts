import type { Me, Role, UserDocument } from '../../../shared/schemas/user.js';
import type { UserRow } from './users.repository.js';

/** Both dialects' timestamps (Date from PostgreSQL, ISO text from SQLite) as ISO-8601. */
export function isoTimestamp(value: Date | string): string {
  return value instanceof Date ? value.toISOString() : new Date(value).toISOString();
}

const asRole = (role: string | null): Role => (role === 'admin' ? 'admin' : 'user');

/** spec §3: the user document. The one place a row becomes what clients see; never the email. */
export function presentUser(row: UserRow): UserDocument {
  return {
    uid: row.id,
    username: row.username,
    firstName: row.firstName,
    lastName: row.lastName,
    displayName: row.displayName,
    avatar: row.image,
    cover: row.cover,
    bio: row.bio,
    role: asRole(row.role),
    active: row.active === null ? true : Boolean(row.active),
    createdAt: isoTimestamp(row.createdAt),
  };
}

/** The signed-in user's own view. */
export function presentMe(row: UserRow): Me {
  return { ...presentUser(row), email: row.email };
}
