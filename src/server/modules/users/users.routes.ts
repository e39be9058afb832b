import type { FastifyPluginAsync } from 'fastify';
import { userEndpoints as api } from '../../../shared/contract/endpoints/users.js';
import { serve } from '../../http/serve.js';
import type { UsersService } from './users.service.js';

/** Public user documents (issue: accounts, "The user document"). */
export const usersRoutes: FastifyPluginAsync<{ users: UsersService }> = (app, { users }) => {
  serve(app, api.getUser, ({ params }) => users.getById(params.uid));
  serve(app, api.getUserByUsername, ({ params }) => users.getByUsername(params.username));
  return Promise.resolve();
};
