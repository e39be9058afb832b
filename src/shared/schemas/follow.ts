import { z } from 'zod';

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
