import type { FastifyPluginAsync } from 'fastify';
import { commentEndpoints as api } from '../../../shared/contract/endpoints/comments.js';
import { serve } from '../../http/serve.js';
import type { CommentsService } from './comments.service.js';

/** Comments, replies and comment likes (issue: posts, "Comments" and "Likes"). */
export const commentsRoutes: FastifyPluginAsync<{ comments: CommentsService }> = (
  app,
  { comments },
) => {
  serve(app, api.getComments, async ({ viewer, params, query }) =>
    comments.thread(await viewer(), params.postId, query),
  );
  serve(app, api.getCommentReplies, async ({ viewer, params, query }) =>
    comments.replies(await viewer(), params.commentId, query),
  );
  serve(app, api.createComment, ({ viewer, params, body }) =>
    comments.create(viewer, params.postId, body),
  );
  serve(app, api.updateComment, ({ viewer, params, body }) =>
    comments.update(viewer, params.commentId, body),
  );
  serve(app, api.deleteComment, async ({ viewer, params }) => {
    await comments.delete(viewer, params.commentId);
    return null;
  });
  serve(app, api.likeComment, ({ viewer, params }) => comments.like(viewer, params.commentId));
  serve(app, api.unlikeComment, ({ viewer, params }) => comments.unlike(viewer, params.commentId));
  return Promise.resolve();
};
