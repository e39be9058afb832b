import { displayNameOf } from '@shared/display-name.js';
import {
  moderationNotificationKinds,
  type NotificationGroup,
} from '@shared/schemas/notification.js';
import { postPath, profilePath } from '@shared/paths.js';
import type { ReportTargetKind } from '@shared/schemas/report.js';
import { countOf } from '@shared/count-label.js';

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
  const rest = countOf(others, 'other', 'others');
  return `${named.join(', ')} and ${rest}`;
}

const thingNames: Record<ReportTargetKind, string> = {
  post: 'post',
  comment: 'comment',
  profile: 'profile',
};

/** "post", "comment", "profile"; "post" when the notification does not say. */
function thing(kind: ReportTargetKind | null | undefined): string {
  return thingNames[kind ?? 'post'];
}

/** A suspension's end as the sentence says it: "until 12 May 2025, 14:00" or "indefinitely". */
export function untilPhrase(until: string | null | undefined): string {
  if (!until) return 'indefinitely';
  const date = new Date(until);
  if (Number.isNaN(date.getTime())) return 'for a time';
  return `until ${date.toLocaleString('en-GB', { dateStyle: 'medium', timeStyle: 'short' })}`;
}

type SentenceGroup = Pick<NotificationGroup, 'kind' | 'comment' | 'moderation'>;

function reportOutcomePhrase(group: SentenceGroup): string {
  const moderation = group.moderation;
  const reported = `the ${thing(moderation?.targetKind)} you reported`;
  const author =
    moderation?.targetKind === 'profile' ? 'the person you reported' : `the author of ${reported}`;
  switch (moderation?.outcome ?? 'dismissed') {
    case 'removed':
      return `removed ${reported}`;
    case 'warned':
      return `warned ${author}`;
    case 'suspended':
      return `suspended ${author}`;
    case 'dismissed':
      return `looked at ${reported} and found no reason to act`;
  }
}

/** What happened, after the people: "liked your post". */
export function actionPhrase(group: SentenceGroup): string {
  const moderation = group.moderation;
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
    case 'report_resolved':
      return reportOutcomePhrase(group);
    case 'warning':
      return 'sent you a warning';
    case 'suspension':
      return `suspended your account ${untilPhrase(moderation?.until)}`;
    case 'suspension_lifted':
      return 'lifted the suspension of your account';
    case 'appeal_decided':
      return moderation?.accepted ? 'accepted your appeal' : 'rejected your appeal';
    case 'content_removed':
      return `removed your ${thing(moderation?.targetKind ?? (group.comment ? 'comment' : 'post'))}`;
    case 'new_report':
      return moderation?.targetKind === 'profile'
        ? 'was reported'
        : `was reported for a ${thing(moderation?.targetKind)}`;
    case 'new_appeal':
      return 'appealed their suspension';
    case 'signup_pending':
      return 'signed up and is waiting for approval';
  }
}

/** The moderators' own kinds speak as "The moderators": nobody is told who acted. */
export function isFromModerators(group: Pick<NotificationGroup, 'kind'>): boolean {
  return moderationNotificationKinds.includes(group.kind);
}

/** The whole sentence: "Ana, Bo and 12 others liked your post"; "The moderators removed your post". */
export function notificationSentence(group: NotificationGroup): string {
  const who = isFromModerators(group)
    ? 'The moderators'
    : actorPhrase(group.actors.map(displayNameOf), group.actorCount);
  return `${who} ${actionPhrase(group)}`;
}

/**
 * The words quoted under the sentence: the new comment or reply, the liked comment, the liked post, or
 * where one was mentioned; for the moderators' kinds, the words of what was reported or removed. Empty
 * for follows and for a post of images alone.
 */
export function notificationExcerpt(group: NotificationGroup): string {
  switch (group.kind) {
    case 'follow':
    case 'signup_pending':
    case 'new_appeal':
    case 'warning':
    case 'suspension':
    case 'suspension_lifted':
    case 'appeal_decided':
      return '';
    case 'like':
      return group.post?.excerpt ?? '';
    case 'comment_like':
    case 'comment':
    case 'reply':
    case 'mention':
      return group.comment?.excerpt ?? group.post?.excerpt ?? '';
    case 'report_resolved':
    case 'content_removed':
    case 'new_report':
      return group.moderation?.excerpt ?? group.comment?.excerpt ?? group.post?.excerpt ?? '';
  }
}

/** Where a reporter reads their reports and what came of them. */
export const myReportsPath = '/notifications?tab=reports';

/**
 * Where the notification leads: a follow to the (newest) follower's profile; the moderators' word on
 * your account to the suspension page; staff kinds to the console; everything else to the post it is
 * about (the post page shows its comments). Null when there is nowhere to go.
 */
export function notificationHref(group: NotificationGroup): string | null {
  switch (group.kind) {
    case 'follow': {
      const first = group.actors[0];
      return first ? profilePath(first) : null;
    }
    case 'report_resolved':
      return myReportsPath;
    case 'suspension':
    case 'suspension_lifted':
    case 'appeal_decided':
      return '/settings/suspension';
    case 'warning':
      return null;
    case 'new_report':
      return '/admin/reports';
    case 'new_appeal':
      return '/admin/reports?tab=appeals';
    case 'signup_pending':
      return '/admin/users?state=pending';
    case 'like':
    case 'comment_like':
    case 'comment':
    case 'reply':
    case 'mention':
    case 'content_removed': {
      const postId = group.post?.id ?? group.comment?.postId;
      return postId ? postPath(postId) : null;
    }
  }
}
