/**
 * Query keys of comments (STYLE.md §4). Everything of one post sits under `ofPost(postId)`, so a change
 * of the post's commentsRevision refreshes all of it at once. Comments carry the viewer's `liked`, so
 * their keys name the viewer: another account never sees the previous one's likes.
 */
export const commentKeys = {
  all: ['comments'] as const,
  ofPost: (postId: string) => [...commentKeys.all, 'post', postId] as const,
  threads: (postId: string, viewerUid: string | null) =>
    [...commentKeys.ofPost(postId), 'threads', viewerUid] as const,
  replies: (postId: string, commentId: string, viewerUid: string | null) =>
    [...commentKeys.ofPost(postId), 'replies', commentId, viewerUid] as const,
  /** The viewer's own new comments, shown until the list they belong to has them (comment-cache.ts). */
  posted: (postId: string, viewerUid: string | null) =>
    [...commentKeys.ofPost(postId), 'posted', viewerUid] as const,
};
