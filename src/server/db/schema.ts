import type { ColumnType } from 'kysely';

/** SQLite keeps timestamps as ISO-8601 text, PostgreSQL as timestamptz (Better Auth's convention, ADR 0001). */
export type Timestamp = ColumnType<Date | string, Date | string, Date | string>;
/** SQLite keeps booleans as 0/1. */
export type Bool = ColumnType<boolean | number, boolean | number, boolean | number>;

export interface UsersTable {
  id: string;
  name: string;
  email: string;
  emailVerified: Bool;
  image: string | null;
  createdAt: Timestamp;
  updatedAt: Timestamp;
  username: string | null;
  displayUsername: string | null;
  firstName: string | null;
  lastName: string | null;
  displayName: string | null;
  cover: string | null;
  bio: string | null;
  active: Bool | null;
  role: string | null;
  website: string | null;
  avatarMediaId: string | null;
  coverMediaId: string | null;
  usernameChangedAt: Timestamp | null;
  banned: Bool | null;
  banReason: string | null;
  banExpires: Timestamp | null;
}

export interface SessionsTable {
  id: string;
  expiresAt: Timestamp;
  token: string;
  createdAt: Timestamp;
  updatedAt: Timestamp;
  ipAddress: string | null;
  userAgent: string | null;
  userId: string;
  impersonatedBy: string | null;
}

export interface AccountsTable {
  id: string;
  accountId: string;
  providerId: string;
  userId: string;
  accessToken: string | null;
  refreshToken: string | null;
  idToken: string | null;
  accessTokenExpiresAt: Timestamp | null;
  refreshTokenExpiresAt: Timestamp | null;
  scope: string | null;
  password: string | null;
  createdAt: Timestamp;
  updatedAt: Timestamp;
}

export interface VerificationsTable {
  id: string;
  identifier: string;
  value: string;
  expiresAt: Timestamp;
  createdAt: Timestamp;
  updatedAt: Timestamp;
}

export type MediaPurpose = 'avatar' | 'cover' | 'post';

export interface MediaTable {
  id: string;
  ownerId: string | null;
  purpose: MediaPurpose;
  alt: string | null;
  width: number;
  height: number;
  /** JSON `Record<rendition, { key, width, height }>`. */
  renditions: string;
  createdAt: Timestamp;
}

export interface ReleasedUsernamesTable {
  username: string;
  userId: string | null;
  releasedAt: Timestamp;
  reservedUntil: Timestamp;
}

/** The one database interface both dialects share. */
export interface Database {
  users: UsersTable;
  sessions: SessionsTable;
  accounts: AccountsTable;
  verifications: VerificationsTable;
  media: MediaTable;
  released_usernames: ReleasedUsernamesTable;
}
