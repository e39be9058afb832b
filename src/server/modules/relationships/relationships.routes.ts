import type { FastifyPluginAsync } from 'fastify';
import { relationshipEndpoints as api } from '../../../shared/contract/endpoints/relationships.js';
import { serve } from '../../http/serve.js';
import type { RelationshipsService } from './relationships.service.js';

/** Block and mute, and the viewer's lists of both (ADR 0022). */
export const relationshipsRoutes: FastifyPluginAsync<{ relationships: RelationshipsService }> = (
  app,
  { relationships },
) => {
  serve(app, api.blockUser, ({ viewer, params }) => relationships.block(viewer, params.uid));
  serve(app, api.unblockUser, ({ viewer, params }) => relationships.unblock(viewer, params.uid));
  serve(app, api.muteUser, ({ viewer, params, body }) =>
    relationships.mute(viewer, params.uid, body.duration),
  );
  serve(app, api.unmuteUser, ({ viewer, params }) => relationships.unmute(viewer, params.uid));
  serve(app, api.listMyBlocks, ({ viewer, query }) => relationships.blocks(viewer, query));
  serve(app, api.listMyMutes, ({ viewer, query }) => relationships.mutes(viewer, query));
  serve(app, api.getHiddenAuthors, ({ viewer }) => relationships.hiddenAuthors(viewer.uid));
  return Promise.resolve();
};
