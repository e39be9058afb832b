import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { errorBodySchema } from '../../../shared/errors.js';
import {
  uidParamsSchema,
  userDocumentSchema,
  usernameParamsSchema,
} from '../../../shared/schemas/user.js';
import type { UsersService } from './users.service.js';

/** Public user documents (issue: accounts, "The user document"). */
export const usersRoutes: FastifyPluginAsyncZod<{ users: UsersService }> = (app, { users }) => {
  app.get(
    '/api/users/:uid',
    {
      schema: {
        params: uidParamsSchema,
        response: { 200: userDocumentSchema, 404: errorBodySchema },
      },
    },
    (request) => users.getById(request.params.uid),
  );

  app.get(
    '/api/users/by-username/:username',
    {
      schema: {
        params: usernameParamsSchema,
        response: { 200: userDocumentSchema, 404: errorBodySchema },
      },
    },
    (request) => users.getByUsername(request.params.username),
  );
  return Promise.resolve();
};
