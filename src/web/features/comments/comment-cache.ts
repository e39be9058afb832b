import type { InfiniteData, QueryClient, QueryKey } from '@tanstack/react-query';
import type { Comment, LikeState, Page, Thread } from '@shared/schemas/post.js';
import { commentKeys } from './comment-keys.js';

/** A comment the viewer just wrote, and when, so it shows before the list it belongs to has it. */
export interface PostedComment {
  comment: Comment;
  postedAt: number;
}

/** Changes one comment: a new version of it, or null when it is gone. */
export type CommentUpdate = (comment: Comment) => Comment | null;

type ThreadPages = InfiniteData<Page<Thread>>;
type CommentPages = InfiniteData<Page<Comment>>;

/** The viewer's press of Like, shown at once (optimistic). Pressing the state it is already in changes nothing. */
export function withLike(comment: Comment, liked: boolean): Comment {
  if (comment.liked === liked) return comment;
  return { ...comment, liked, likeCount: Math.max(0, comment.likeCount + (liked ? 1 : -1)) };
}

/** Undoes a press whose request failed, unless a later press has changed the state since. */
export function rollBackLike(comment: Comment, attempted: boolean): Comment {
  return comment.liked === attempted ? withLike(comment, !attempted) : comment;
}

/**
 * The server's answer to a press. Its count is the truth, but only while the button still shows the
 * state that was asked for: otherwise a later press is on its way and its own answer will follow.
 */
export function withLikeState(comment: Comment, state: LikeState): Comment {
  return comment.liked === state.liked ? { ...comment, likeCount: state.likeCount } : comment;
}

/** An edited comment as the server returned it; a thread keeps the replies it has loaded. */
export function withSaved(saved: Comment): CommentUpdate {
  return (comment) => ({ ...comment, ...saved });
}

/** Applies `update` to a thread's own comment and to its loaded replies, counting removed replies. */
function updateThread(thread: Thread, id: string, update: CommentUpdate): Thread | null {
  if (thread.id === id) {
    const next = update(thread);
    return next ? { ...thread, ...next, replies: thread.replies } : null;
  }
  if (!thread.replies.some((reply) => reply.id === id)) return thread;
  const replies: Comment[] = [];
  for (const reply of thread.replies) {
    const next = reply.id === id ? update(reply) : reply;
    if (next) replies.push(next);
  }
  const removed = thread.replies.length - replies.length;
  return { ...thread, replies, replyCount: Math.max(0, thread.replyCount - removed) };
}

/** `update` applied to every copy of comment `id` in a page list of threads. */
export function updateThreadPages(
  data: ThreadPages,
  id: string,
  update: CommentUpdate,
): ThreadPages {
  return {
    ...data,
    pages: data.pages.map((page) => ({
      ...page,
      items: page.items.flatMap((thread) => {
        const next = updateThread(thread, id, update);
        return next ? [next] : [];
      }),
    })),
  };
}

/** `update` applied to comment `id` in a page list of replies. */
export function updateCommentPages(
  data: CommentPages,
  id: string,
  update: CommentUpdate,
): CommentPages {
  return {
    ...data,
    pages: data.pages.map((page) => ({
      ...page,
      items: page.items.flatMap((comment) => {
        const next = comment.id === id ? update(comment) : comment;
        return next ? [next] : [];
      }),
    })),
  };
}

/** `update` applied to the viewer's new comments; a removed top-level comment takes its replies along. */
export function updatePosted(
  posted: readonly PostedComment[],
  id: string,
  update: CommentUpdate,
): PostedComment[] {
  const result: PostedComment[] = [];
  let removedParent = false;
  for (const entry of posted) {
    if (entry.comment.id !== id) {
      result.push(entry);
      continue;
    }
    const next = update(entry.comment);
    if (next) result.push({ ...entry, comment: next });
    else removedParent = entry.comment.parentId === null;
  }
  return removedParent ? result.filter((entry) => entry.comment.parentId !== id) : result;
}

/** The viewer's comment appended to their recent ones. */
export function addPosted(
  posted: readonly PostedComment[] | undefined,
  comment: Comment,
  postedAt: number,
): PostedComment[] {
  return [
    ...(posted ?? []).filter((entry) => entry.comment.id !== comment.id),
    { comment, postedAt },
  ];
}

/**
 * The viewer's new comments under `parentId` (null: top level) that a list does not show yet. Once
 * the list is complete and was read after the comment was written, a comment missing from it was
 * deleted, so it is no longer shown either.
 */
export function pendingPosted(
  loadedIds: ReadonlySet<string>,
  posted: readonly PostedComment[] | undefined,
  parentId: string | null,
  list: { complete: boolean; loadedAt: number },
): Comment[] {
  return (posted ?? [])
    .filter(
      (entry) =>
        entry.comment.parentId === parentId &&
        !loadedIds.has(entry.comment.id) &&
        !(list.complete && list.loadedAt > entry.postedAt),
    )
    .map((entry) => entry.comment);
}

type CacheKind = 'threads' | 'replies' | 'posted';

function kindOf(key: QueryKey): CacheKind | null {
  const kind = key[3];
  return kind === 'threads' || kind === 'replies' || kind === 'posted' ? kind : null;
}

/**
 * Applies `update` to every cached copy of comment `id` under post `postId`: the thread pages, the
 * reply pages and the viewer's recent comments, so a like, an edit or a deletion shows everywhere at once.
 */
export function updateCommentEverywhere(
  queryClient: QueryClient,
  postId: string,
  id: string,
  update: CommentUpdate,
): void {
  for (const [key, data] of queryClient.getQueriesData({ queryKey: commentKeys.ofPost(postId) })) {
    if (data === undefined) continue;
    switch (kindOf(key)) {
      case 'threads':
        queryClient.setQueryData(key, updateThreadPages(data as ThreadPages, id, update));
        break;
      case 'replies':
        queryClient.setQueryData(key, updateCommentPages(data as CommentPages, id, update));
        break;
      case 'posted':
        queryClient.setQueryData(key, updatePosted(data as PostedComment[], id, update));
        break;
      case null:
        break;
    }
  }
}
