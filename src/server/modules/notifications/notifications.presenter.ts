import { displayNameOf } from '../../../shared/display-name.js';
import { notificationDelivery } from '../../../shared/limits.js';
import type { NotificationGroup } from '../../../shared/schemas/notification.js';
import type { Author } from '../../../shared/schemas/post.js';
import { presentAuthor } from '../users/authors.presenter.js';
import type { AuthorColumns } from '../users/authors.repository.js';
import type {
  GroupActors,
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
      const actors = (group?.actorIds ?? [head.actorId])
        .map((uid) => authors.get(uid))
        .filter((author): author is Author => author !== undefined);
      if (actors.length === 0) return [];
      const postBody = head.postId === null ? undefined : data.posts.get(head.postId);
      const comment = head.commentId === null ? undefined : data.comments.get(head.commentId);
      return [
        {
          id: head.id,
          kind: head.kind,
          createdAt: head.createdAt,
          unread: BigInt(head.id) > lastRead,
          actors,
          actorCount: Math.max(group?.count ?? 1, actors.length),
          post:
            head.postId !== null && postBody !== undefined
              ? { id: head.postId, excerpt: excerptOf(postBody) }
              : null,
          comment: comment
            ? { id: comment.id, postId: comment.postId, excerpt: excerptOf(comment.body) }
            : null,
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
