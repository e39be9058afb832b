/** The two lists of a profile (issue: posts §5). */
export type FollowListKind = 'followers' | 'following';

/**
 * Query keys of follows (STYLE.md §4). A relationship is the viewer's own view, so its key names the
 * viewer: signing in as someone else never shows the previous account's answer.
 */
export const followKeys = {
  all: ['follows'] as const,
  relationships: () => [...followKeys.all, 'relationship'] as const,
  relationship: (viewerUid: string, uid: string) =>
    [...followKeys.relationships(), viewerUid, uid] as const,
  lists: (uid: string) => [...followKeys.all, 'list', uid] as const,
  /** Lists carry the viewer's relationship with each person, so their key names the viewer too. */
  list: (uid: string, kind: FollowListKind, viewerUid: string | null) =>
    [...followKeys.lists(uid), kind, viewerUid] as const,
};
