import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { errorBodySchema } from '../../../shared/errors.js';
import { rateLimits } from '../../../shared/limits.js';
import {
  followListPageSchema,
  followStateSchema,
  relationshipSchema,
} from '../../../shared/schemas/follow.js';
import { pageQuerySchema } from '../../../shared/schemas/post.js';
import { uidParamsSchema } from '../../../shared/schemas/user.js';
import { requireActiveViewer } from '../../plugins/viewer.js';
import type { FollowsService } from './follows.service.js';
import { perAccount } from '../../plugins/rate-limit.js';

const errors = {
  400: errorBodySchema,
  401: errorBodySchema,
  403: errorBodySchema,
  404: errorBodySchema,
  429: errorBodySchema,
};

/** Follow and unfollow, relationships, follower and following lists (issue: posts, "Follows"). */
export const followsRoutes: FastifyPluginAsyncZod<{ follows: FollowsService }> = (
  app,
  { follows },
) => {
  const reactionLimit = app.limit({
    name: 'follow',
    ...rateLimits.reaction,
    key: perAccount,
  });

  app.put(
    '/api/users/:uid/follow',
    {
      schema: { params: uidParamsSchema, response: { 200: followStateSchema, ...errors } },
      preHandler: [reactionLimit],
    },
    async (request) => follows.follow(await requireActiveViewer(request), request.params.uid),
  );

  app.delete(
    '/api/users/:uid/follow',
    {
      schema: { params: uidParamsSchema, response: { 200: followStateSchema, ...errors } },
      preHandler: [reactionLimit],
    },
    async (request) => follows.unfollow(await requireActiveViewer(request), request.params.uid),
  );

  app.get(
    '/api/users/:uid/relationship',
    { schema: { params: uidParamsSchema, response: { 200: relationshipSchema, ...errors } } },
    async (request) => follows.relationship(await request.viewer(), request.params.uid),
  );

  app.get(
    '/api/users/:uid/followers',
    {
      schema: {
        params: uidParamsSchema,
        querystring: pageQuerySchema,
        response: { 200: followListPageSchema, ...errors },
      },
    },
    async (request) => follows.followers(await request.viewer(), request.params.uid, request.query),
  );

  app.get(
    '/api/users/:uid/following',
    {
      schema: {
        params: uidParamsSchema,
        querystring: pageQuerySchema,
        response: { 200: followListPageSchema, ...errors },
      },
    },
    async (request) => follows.following(await request.viewer(), request.params.uid, request.query),
  );

  return Promise.resolve();
};
