import type { Comment } from '@shared/schemas/post.js';

/** Who is reading the comments, as far as they need to know. */
export interface CommentViewer {
  uid: string;
  isAdmin: boolean;
  /** decision 0005: inactive users read but cannot comment, reply or like. */
  active: boolean;
  /** ADR 0021: suspended accounts are not `active` here either; this says why. */
  suspended?: boolean;
}

/** The viewer, null when signed out, undefined while the session is still loading. */
export type CommentViewerState = CommentViewer | null | undefined;

/** issue §3: people edit their own comments only. */
export function canEditComment(viewer: CommentViewerState, comment: Comment): boolean {
  return !!viewer && viewer.active && viewer.uid === comment.author.uid;
}

/** A comment may be deleted by its author, by the post's author (their own page) or by an administrator. */
export function canDeleteComment(
  viewer: CommentViewerState,
  comment: Comment,
  postAuthorUid: string,
): boolean {
  return (
    !!viewer &&
    viewer.active &&
    (viewer.uid === comment.author.uid || viewer.uid === postAuthorUid || viewer.isAdmin)
  );
}

/** Where a reply to `comment` goes, and whom it greets. */
export interface ReplyTarget {
  /** The top-level comment whose thread the reply joins (replies are one level deep). */
  threadId: string;
  /** The username to prefill as @mention, or null. */
  mention: string | null;
}

/**
 * issue §3: a reply to a reply joins the same thread and starts with @username, so it is clear whom
 * it answers; a reply to a top-level comment needs no mention, nor does answering oneself.
 */
export function replyTarget(comment: Comment, viewer: CommentViewerState): ReplyTarget {
  if (comment.parentId === null) return { threadId: comment.id, mention: null };
  const { username, uid } = comment.author;
  return {
    threadId: comment.parentId,
    mention: username && uid !== viewer?.uid ? username.toLowerCase() : null,
  };
}

/** The reply draft with `@username` in front, unless it already greets them; what was typed stays. */
export function withMention(draft: string, username: string | null): string {
  if (!username) return draft;
  const mention = `@${username}`;
  const greeted = draft
    .split(/\s+/)
    .some((word) => word.toLowerCase().replace(/[^\w@]+$/, '') === mention.toLowerCase());
  if (greeted) return draft;
  const rest = draft.trimStart();
  return rest === '' ? `${mention} ` : `${mention} ${rest}`;
}
