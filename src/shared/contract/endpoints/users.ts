import { uidParamsSchema, userDocumentSchema, usernameParamsSchema } from '../../schemas/user.js';
import { limits } from '../../limits.js';
import { defineEndpoint } from '../endpoint.js';

/** Public user documents (issue: accounts, "The user document"). */
export const userEndpoints = {
  getUser: defineEndpoint({
    id: 'getUser',
    method: 'GET',
    path: '/api/users/{uid}',
    tag: 'Users',
    summary: 'One user document, by id',
    access: 'public',
    params: uidParamsSchema,
    status: 200,
    response: userDocumentSchema,
    errors: [404],
  }),
  getUserByUsername: defineEndpoint({
    id: 'getUserByUsername',
    method: 'GET',
    path: '/api/users/by-username/{username}',
    tag: 'Users',
    summary: 'One user document, by username',
    description: `In any case. A username given up within the last ${limits.usernameChange.reserveDays} days still finds the account that had it, whose document (with its new username) is the answer.`,
    access: 'public',
    params: usernameParamsSchema,
    status: 200,
    response: userDocumentSchema,
    errors: [404],
  }),
} as const;
