import { followListPageSchema, followStateSchema } from '../../schemas/follow.js';
import { fullRelationshipSchema } from '../../schemas/relationship.js';
import { pageQuerySchema } from '../../schemas/post.js';
import { uidParamsSchema } from '../../schemas/user.js';
import { defineEndpoint } from '../endpoint.js';

const followListDescription =
  "Newest follow first; `cursor` is the one the previous page gave. Each person comes with how the viewer relates to them (null when signed out, and on the viewer's own row).";

/** Follow and unfollow, relationships, follower and following lists (issue: posts, "Follows"). */
export const followEndpoints = {
  followUser: defineEndpoint({
    id: 'followUser',
    method: 'PUT',
    path: '/api/users/{uid}/follow',
    tag: 'Follows',
    summary: 'Follow a user',
    description:
      "Idempotent: following someone again is not an error. Answers the new state with the followed user's follower count; following oneself is a 400.",
    access: 'active',
    params: uidParamsSchema,
    status: 200,
    response: followStateSchema,
    errors: [404],
    rateLimit: ['follow'],
  }),
  unfollowUser: defineEndpoint({
    id: 'unfollowUser',
    method: 'DELETE',
    path: '/api/users/{uid}/follow',
    tag: 'Follows',
    summary: 'Stop following a user',
    description:
      "Idempotent: unfollowing someone one does not follow is not an error. Answers the new state with the user's follower count; unfollowing oneself is a 400.",
    access: 'active',
    params: uidParamsSchema,
    status: 200,
    response: followStateSchema,
    errors: [404],
    rateLimit: ['follow'],
  }),
  getRelationship: defineEndpoint({
    id: 'getRelationship',
    method: 'GET',
    path: '/api/users/{uid}/relationship',
    tag: 'Follows',
    summary: 'Whether the viewer and a user follow, block or mute each other',
    description:
      'Signed out, or for the viewer themself, all are false. `blockedBy` says only that the user blocks the viewer (ADR 0022).',
    access: 'public',
    params: uidParamsSchema,
    status: 200,
    response: fullRelationshipSchema,
    errors: [404],
  }),
  getFollowers: defineEndpoint({
    id: 'getFollowers',
    method: 'GET',
    path: '/api/users/{uid}/followers',
    tag: 'Follows',
    summary: 'A page of the people who follow a user',
    description: followListDescription,
    access: 'public',
    params: uidParamsSchema,
    query: pageQuerySchema,
    status: 200,
    response: followListPageSchema,
    errors: [404],
  }),
  getFollowing: defineEndpoint({
    id: 'getFollowing',
    method: 'GET',
    path: '/api/users/{uid}/following',
    tag: 'Follows',
    summary: 'A page of the people a user follows',
    description: followListDescription,
    access: 'public',
    params: uidParamsSchema,
    query: pageQuerySchema,
    status: 200,
    response: followListPageSchema,
    errors: [404],
  }),
} as const;
