import type { FastifyPluginAsync } from 'fastify';
import { followEndpoints as api } from '../../../shared/contract/endpoints/follows.js';
import { serve } from '../../http/serve.js';
import type { FollowsService } from './follows.service.js';

/** Follow and unfollow, relationships, follower and following lists (issue: posts, "Follows"). */
export const followsRoutes: FastifyPluginAsync<{ follows: FollowsService }> = (
  app,
  { follows },
) => {
  serve(app, api.followUser, ({ viewer, params }) => follows.follow(viewer, params.uid));
  serve(app, api.unfollowUser, ({ viewer, params }) => follows.unfollow(viewer, params.uid));
  serve(app, api.getRelationship, async ({ viewer, params }) =>
    follows.relationship(await viewer(), params.uid),
  );
  serve(app, api.getFollowers, async ({ viewer, params, query }) =>
    follows.followers(await viewer(), params.uid, query),
  );
  serve(app, api.getFollowing, async ({ viewer, params, query }) =>
    follows.following(await viewer(), params.uid, query),
  );
  return Promise.resolve();
};
