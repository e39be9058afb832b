import { z } from 'zod';
import { authorSchema, pageSchema } from './post.js';

/** How the viewer and another user are connected (issue: posts, follows). */
export const relationshipSchema = z.object({
  following: z.boolean(),
  followedBy: z.boolean(),
});
export type Relationship = z.infer<typeof relationshipSchema>;

/** PUT/DELETE /api/users/:uid/follow: the new state, and the followed user's follower count. */
export const followStateSchema = z.object({
  following: z.boolean(),
  followerCount: z.number().int(),
});
export type FollowState = z.infer<typeof followStateSchema>;

/**
 * A person in a follower or following list, with how the viewer relates to them (null when signed out, or
 * for the viewer's own row), so a list needs no request per row to draw its Follow buttons.
 */
export const followListItemSchema = authorSchema.extend({
  relationship: relationshipSchema.nullable(),
});
export type FollowListItem = z.infer<typeof followListItemSchema>;
export const followListPageSchema = pageSchema(followListItemSchema);
