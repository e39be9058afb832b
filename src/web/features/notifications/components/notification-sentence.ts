import { displayNameOf } from '@shared/display-name.js';
import type { NotificationGroup } from '@shared/schemas/notification.js';
import { postPath, profilePath } from '@shared/paths.js';

const countFormat = new Intl.NumberFormat('en');

/**
 * Who is behind a notification, as Bluesky and Mastodon say it: "Ana", "Ana and Bo", "Ana, Bo and Cy",
 * "Ana, Bo and 12 others". `names` are the people shown (newest first), `total` everyone behind it; at
 * most two are named once there are more than three, so the line stays short on a phone.
 */
export function actorPhrase(names: readonly string[], total: number): string {
  const count = Math.max(total, names.length, 1);
  const shown = names.length === 0 ? ['Someone'] : [...names];
  if (count <= 3 && shown.length === count) {
    if (shown.length === 1) return shown[0] ?? '';
    return `${shown.slice(0, -1).join(', ')} and ${shown.at(-1) ?? ''}`;
  }
  const named = shown.slice(0, 2);
  const others = count - named.length;
  const rest = `${countFormat.format(others)} ${others === 1 ? 'other' : 'others'}`;
  return `${named.join(', ')} and ${rest}`;
}

/** What happened, after the people: "liked your post". */
export function actionPhrase(group: Pick<NotificationGroup, 'kind' | 'comment'>): string {
  switch (group.kind) {
    case 'follow':
      return 'followed you';
    case 'like':
      return 'liked your post';
    case 'comment_like':
      return 'liked your comment';
    case 'comment':
      return 'commented on your post';
    case 'reply':
      return 'replied to your comment';
    case 'mention':
      return group.comment ? 'mentioned you in a comment' : 'mentioned you in a post';
  }
}

/** The whole sentence: "Ana, Bo and 12 others liked your post". */
export function notificationSentence(group: NotificationGroup): string {
  return `${actorPhrase(group.actors.map(displayNameOf), group.actorCount)} ${actionPhrase(group)}`;
}

/**
 * The words quoted under the sentence: the new comment or reply, the liked comment, the liked post, or
 * where one was mentioned. Empty for follows and for a post of images alone.
 */
export function notificationExcerpt(group: NotificationGroup): string {
  switch (group.kind) {
    case 'follow':
      return '';
    case 'like':
      return group.post?.excerpt ?? '';
    case 'comment_like':
    case 'comment':
    case 'reply':
    case 'mention':
      return group.comment?.excerpt ?? group.post?.excerpt ?? '';
  }
}

/**
 * Where the notification leads: a follow to the (newest) follower's profile, everything else to the
 * post it is about (the post page shows its comments). Null when the thing is gone.
 */
export function notificationHref(group: NotificationGroup): string | null {
  if (group.kind === 'follow') {
    const first = group.actors[0];
    return first ? profilePath(first) : null;
  }
  const postId = group.post?.id ?? group.comment?.postId;
  return postId ? postPath(postId) : null;
}
