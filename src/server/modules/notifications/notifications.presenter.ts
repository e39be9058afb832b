import { displayNameOf } from '../../../shared/display-name.js';
import { notificationDelivery } from '../../../shared/limits.js';
import {
  moderationNotificationKinds,
  type NotificationGroup,
  type NotificationModeration,
} from '../../../shared/schemas/notification.js';
import {
  reportOutcomeSchema,
  reportSnapshotSchema,
  reportTargetKindSchema,
} from '../../../shared/schemas/report.js';
import type { Author } from '../../../shared/schemas/post.js';
import { presentAuthor } from '../users/authors.presenter.js';
import type { AuthorColumns } from '../users/authors.repository.js';
import type {
  GroupActors,
  ModerationSubjectRows,
  NotificationHead,
  NotificationSubject,
} from './notifications.repository.js';

const graphemes = new Intl.Segmenter('en', { granularity: 'grapheme' });

/**
 * The first words of a post or comment, as plain text on one line: enough to recognise it, never the whole
 * of a long text (lists and mail show no more than this). Counted and cut in characters as people see
 * them (grapheme clusters), so an emoji is never split.
 */
export function excerptOf(text: string): string {
  const flat = text.replace(/\s+/g, ' ').trim();
  const max = notificationDelivery.excerptChars;
  let kept = '';
  let count = 0;
  for (const { segment } of graphemes.segment(flat)) {
    count += 1;
    if (count > max) return `${kept.trimEnd()}…`;
    if (count < max) kept += segment;
  }
  return flat;
}

/** Everything a page of notification groups is built from, read in a handful of queries. */
export interface NotificationPageData {
  heads: NotificationHead[];
  groups: Map<string, GroupActors>;
  authors: AuthorColumns[];
  posts: Map<string, string>;
  comments: Map<string, NotificationSubject>;
  lastReadId: string;
  moderation: ModerationSubjectRows;
}

/** Kinds that carry a `moderation` part: the moderators' and staff's. */
const staffKinds = new Set(['new_report', 'new_appeal', 'signup_pending']);

function parseJson(text: string | null): unknown {
  if (text === null) return null;
  try {
    return JSON.parse(text);
  } catch {
    return null;
  }
}

/** What a moderation notification tells, from the audit entry, report or appeal it names. */
export function moderationOf(
  head: Pick<NotificationHead, 'kind' | 'subjectId'>,
  rows: ModerationSubjectRows,
): NotificationModeration {
  const told: NotificationModeration = {
    subjectId: head.subjectId,
    reason: null,
    outcome: null,
    until: null,
    accepted: null,
    targetKind: null,
    excerpt: null,
  };
  const id = head.subjectId;
  if (id === null) return told;
  switch (head.kind) {
    case 'warning':
    case 'suspension':
    case 'suspension_lifted':
    case 'content_removed': {
      const action = rows.actions.get(id);
      if (!action) return told;
      const details = parseJson(action.details);
      const until =
        typeof details === 'object' && details !== null && 'until' in details
          ? details.until
          : null;
      const kind = reportTargetKindSchema.safeParse(action.subjectKind);
      return {
        ...told,
        reason: action.reason,
        until: typeof until === 'string' ? until : null,
        targetKind: kind.success ? kind.data : null,
        excerpt: action.excerpt,
      };
    }
    case 'appeal_decided':
    case 'new_appeal': {
      const appeal = rows.appeals.get(id);
      if (!appeal) return told;
      return head.kind === 'appeal_decided'
        ? { ...told, reason: appeal.decisionReason, accepted: appeal.status === 'accepted' }
        : { ...told, excerpt: excerptOf(appeal.text) };
    }
    case 'report_resolved':
    case 'new_report': {
      const report = rows.reports.get(id);
      if (!report) return told;
      const outcome = reportOutcomeSchema.safeParse(report.outcome);
      const kind = reportTargetKindSchema.safeParse(report.targetKind);
      const snapshot = reportSnapshotSchema.safeParse(parseJson(report.snapshot));
      return {
        ...told,
        outcome: head.kind === 'report_resolved' && outcome.success ? outcome.data : null,
        targetKind: kind.success ? kind.data : null,
        excerpt: snapshot.success ? excerptOf(snapshot.data.text) : null,
      };
    }
    default:
      return told;
  }
}

/** Turns notification rows into the contract's groups; a group whose people are all gone is left out. */
export class NotificationPresenter {
  constructor(private readonly mediaUrl: (key: string) => string) {}

  groups(data: NotificationPageData): NotificationGroup[] {
    const authors = new Map<string, Author>(
      data.authors.map((row) => [row.authorUid, presentAuthor(row, this.mediaUrl)]),
    );
    const lastRead = BigInt(data.lastReadId);
    return data.heads.flatMap((head) => {
      const group = head.groupKey === null ? undefined : data.groups.get(head.groupKey);
      // The moderators speak unnamed: their kinds carry no people at all.
      const unnamed = moderationNotificationKinds.includes(head.kind);
      const actors = unnamed
        ? []
        : (group?.actorIds ?? [head.actorId])
            .map((uid) => authors.get(uid))
            .filter((author): author is Author => author !== undefined);
      if (!unnamed && actors.length === 0) return [];
      const postBody = head.postId === null ? undefined : data.posts.get(head.postId);
      const comment = head.commentId === null ? undefined : data.comments.get(head.commentId);
      return [
        {
          id: head.id,
          kind: head.kind,
          createdAt: head.createdAt,
          unread: BigInt(head.id) > lastRead,
          actors,
          actorCount: unnamed ? 0 : Math.max(group?.count ?? 1, actors.length),
          post:
            head.postId !== null && postBody !== undefined
              ? { id: head.postId, excerpt: excerptOf(postBody) }
              : null,
          comment: comment
            ? { id: comment.id, postId: comment.postId, excerpt: excerptOf(comment.body) }
            : null,
          moderation:
            unnamed || staffKinds.has(head.kind) ? moderationOf(head, data.moderation) : null,
        },
      ];
    });
  }
}

/** The name a mail calls a person by (spec §3's display-name rule), with their handle when they have one. */
export function nameInMail(
  author: Pick<Author, 'firstName' | 'lastName' | 'displayName' | 'username'>,
): string {
  const name = displayNameOf(author);
  return author.username && name !== author.username ? `${name} (@${author.username})` : name;
}
