/** Who is looking at posts, as far as the post screens need to know. */
export interface PostViewer {
  uid: string;
  isAdmin: boolean;
  /** ADR 0005: inactive users read but cannot post, like, comment or follow. */
  active: boolean;
  /** ADR 0021: suspended accounts are not `active` here either; this says why. */
  suspended?: boolean;
}

/** The viewer, null when signed out, undefined while the session is still loading. */
export type PostViewerState = PostViewer | null | undefined;

/** spec: authors edit their posts; administrators may delete any post but edit none. */
export function canEditPost(viewer: PostViewerState, authorUid: string): boolean {
  return !!viewer && viewer.active && viewer.uid === authorUid;
}

export function canDeletePost(viewer: PostViewerState, authorUid: string): boolean {
  return !!viewer && viewer.active && (viewer.uid === authorUid || viewer.isAdmin);
}
