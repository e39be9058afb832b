import {
  fullRelationshipSchema,
  hiddenAuthorsSchema,
  muteBodySchema,
  relationshipListPageSchema,
  relationshipListQuerySchema,
} from '../../schemas/relationship.js';
import { uidParamsSchema } from '../../schemas/user.js';
import { defineEndpoint } from '../endpoint.js';

const listDescription =
  'Newest first; `cursor` is the one the previous page gave. Mutes that have run out are not listed.';

/** Block and mute (issue: moderation and administration §2, ADR 0022). */
export const relationshipEndpoints = {
  blockUser: defineEndpoint({
    id: 'blockUser',
    method: 'PUT',
    path: '/api/users/{uid}/block',
    tag: 'Relationships',
    summary: 'Block a user',
    description:
      'Ends follows both ways; from then on neither sees the other’s posts or comments, and neither can follow, comment on, reply to, like or mention the other. Idempotent; blocking oneself is a 400. Answers the new relationship.',
    access: 'active',
    params: uidParamsSchema,
    status: 200,
    response: fullRelationshipSchema,
    errors: [404],
    rateLimit: ['block'],
  }),
  unblockUser: defineEndpoint({
    id: 'unblockUser',
    method: 'DELETE',
    path: '/api/users/{uid}/block',
    tag: 'Relationships',
    summary: 'Unblock a user',
    description:
      'Idempotent; follows ended by the block do not come back. Unblocking oneself is a 400. Answers the new relationship.',
    access: 'active',
    params: uidParamsSchema,
    status: 200,
    response: fullRelationshipSchema,
    errors: [404],
    rateLimit: ['block'],
  }),
  muteUser: defineEndpoint({
    id: 'muteUser',
    method: 'PUT',
    path: '/api/users/{uid}/mute',
    tag: 'Relationships',
    summary: 'Mute a user',
    description:
      'Their posts and comments leave the viewer’s feeds, comment threads and notifications, silently; they are not told. `duration` is 1h, 1d, 7d, 30d or indefinite (the default); muting again sets a new duration. Muting oneself is a 400.',
    access: 'active',
    params: uidParamsSchema,
    body: muteBodySchema,
    status: 200,
    response: fullRelationshipSchema,
    errors: [404],
    rateLimit: ['block'],
  }),
  unmuteUser: defineEndpoint({
    id: 'unmuteUser',
    method: 'DELETE',
    path: '/api/users/{uid}/mute',
    tag: 'Relationships',
    summary: 'Unmute a user',
    description: 'Idempotent. Unmuting oneself is a 400. Answers the new relationship.',
    access: 'active',
    params: uidParamsSchema,
    status: 200,
    response: fullRelationshipSchema,
    errors: [404],
    rateLimit: ['block'],
  }),
  listMyBlocks: defineEndpoint({
    id: 'listMyBlocks',
    method: 'GET',
    path: '/api/me/blocks',
    tag: 'Relationships',
    summary: 'A page of the people the viewer blocks',
    description: listDescription,
    access: 'signed-in',
    query: relationshipListQuerySchema,
    status: 200,
    response: relationshipListPageSchema,
  }),
  listMyMutes: defineEndpoint({
    id: 'listMyMutes',
    method: 'GET',
    path: '/api/me/mutes',
    tag: 'Relationships',
    summary: 'A page of the people the viewer mutes',
    description: listDescription,
    access: 'signed-in',
    query: relationshipListQuerySchema,
    status: 200,
    response: relationshipListPageSchema,
  }),
  getHiddenAuthors: defineEndpoint({
    id: 'getHiddenAuthors',
    method: 'GET',
    path: '/api/me/hidden-authors',
    tag: 'Relationships',
    summary: 'Whose content the viewer does not see',
    description:
      'The ids of people the viewer blocks, is blocked by or mutes (bounded), so live arrivals from them can be dropped. The server filters every list itself.',
    access: 'signed-in',
    status: 200,
    response: hiddenAuthorsSchema,
  }),
} as const;
