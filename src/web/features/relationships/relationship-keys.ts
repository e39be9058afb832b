/**
 * Query keys of block and mute (STYLE.md §4). Every key names the viewer: signing in as someone else
 * never shows the previous account's lists.
 */
export const relationshipKeys = {
  all: ['relationships'] as const,
  hidden: (viewerUid: string) => [...relationshipKeys.all, 'hidden', viewerUid] as const,
  lists: (viewerUid: string) => [...relationshipKeys.all, 'list', viewerUid] as const,
  list: (viewerUid: string, kind: RelationshipListKind) =>
    [...relationshipKeys.lists(viewerUid), kind] as const,
  state: (viewerUid: string, uid: string) =>
    [...relationshipKeys.all, 'state', viewerUid, uid] as const,
};

/** The two sections of the privacy settings. */
export type RelationshipListKind = 'blocks' | 'mutes';
