import type { Relationship } from '@shared/schemas/follow.js';

/** The relationship shown the moment the viewer presses Follow or Following (optimistic). */
export function withFollowing(
  relationship: Relationship | undefined,
  following: boolean,
): Relationship {
  return { followedBy: relationship?.followedBy ?? false, following };
}

/**
 * Undoes a press whose request failed, unless a later press has changed the state since: that press
 * has its own request, and its own rollback.
 */
export function rollBackFollowing(
  relationship: Relationship | undefined,
  attempted: boolean,
): Relationship | undefined {
  if (relationship?.following !== attempted) return relationship;
  return { ...relationship, following: !attempted };
}
