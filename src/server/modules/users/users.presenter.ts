import { limits } from '../../../shared/limits.js';
import type { Me, Role, UserDocument } from '../../../shared/schemas/user.js';
import { parseRenditions } from '../../media/renditions.js';
import type { UserRecord } from './users.repository.js';

/** Both dialects' timestamps (Date from PostgreSQL, ISO text from SQLite) as ISO-8601. */
export function isoTimestamp(value: Date | string): string {
  return value instanceof Date ? value.toISOString() : new Date(value).toISOString();
}

const asRole = (role: string | null): Role => (role === 'admin' ? 'admin' : 'user');

const dayMs = 24 * 60 * 60 * 1000;

/** Turns stored records into what clients see. The one place that does, so HTTP and sockets agree. */
export class UserPresenter {
  /** `mediaUrl` maps a storage key to its public URL (local folder or S3). */
  constructor(private readonly mediaUrl: (key: string) => string) {}

  /** spec §3: the user document. Never the email. */
  user(record: UserRecord): UserDocument {
    const avatar = parseRenditions(record.avatarRenditions);
    const cover = parseRenditions(record.coverRenditions);
    const url = (key: string | undefined) => (key ? this.mediaUrl(key) : null);
    return {
      uid: record.id,
      username: record.username,
      firstName: record.firstName,
      lastName: record.lastName,
      displayName: record.displayName,
      avatar: url(avatar.avatar?.key),
      avatarThumb: url(avatar.thumb?.key ?? avatar.avatar?.key),
      avatarAlt: record.avatarAlt,
      cover: url(cover.cover?.key),
      coverAlt: record.coverAlt,
      bio: record.bio,
      website: record.website,
      role: asRole(record.role),
      active: record.active === null ? true : Boolean(record.active),
      createdAt: isoTimestamp(record.createdAt),
      counts: {
        posts: record.postCount,
        followers: record.followerCount,
        following: record.followingCount,
      },
    };
  }

  /** The signed-in user's own view. */
  me(record: UserRecord): Me {
    let usernameChangeAvailableAt: string | null = null;
    if (record.usernameChangedAt) {
      const next = new Date(
        new Date(isoTimestamp(record.usernameChangedAt)).getTime() +
          limits.usernameChange.cooldownDays * dayMs,
      );
      if (next.getTime() > Date.now()) usernameChangeAvailableAt = next.toISOString();
    }
    return { ...this.user(record), email: record.email, usernameChangeAvailableAt };
  }
}
