import {
  isSuspended,
  type Me,
  type Suspension,
  type UserDocument,
} from '../../../shared/schemas/user.js';
import { toRole } from '../../../shared/roles.js';
import { usernameCooldownEnds } from '../../../shared/username-change.js';
import { parseRenditions } from '../../media/renditions.js';
import type { UserRecord } from './users.repository.js';

/** The account's suspension while it holds, or null (ADR 0021). */
export function suspensionOf(record: UserRecord, now = Date.now()): Suspension | null {
  if (!record.suspendedAt || !isSuspended(record.suspendedAt, record.suspendedUntil, now))
    return null;
  return {
    reason: record.suspensionReason ?? '',
    since: record.suspendedAt,
    until: record.suspendedUntil,
  };
}

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
      coverSmall: cover.cover ? url(cover.coverSmall?.key) : null,
      coverAlt: record.coverAlt,
      bio: record.bio,
      bioMentions: record.bioMentions,
      website: record.website,
      role: toRole(record.role),
      active: record.active,
      suspended: isSuspended(record.suspendedAt, record.suspendedUntil),
      createdAt: record.createdAt,
      counts: {
        posts: record.postCount,
        followers: record.followerCount,
        following: record.followingCount,
      },
    };
  }

  /** The signed-in user's own view. */
  me(record: UserRecord): Me {
    const availableAt = usernameCooldownEnds(record.usernameChangedAt, Date.now());
    return {
      ...this.user(record),
      email: record.email,
      usernameChangeAvailableAt: availableAt ? availableAt.toISOString() : null,
      suspension: suspensionOf(record),
      awaitingApproval: record.awaitingApproval,
    };
  }
}
