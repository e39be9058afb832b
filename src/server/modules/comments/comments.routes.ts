import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { errorBodySchema } from '../../../shared/errors.js';
import { rateLimits } from '../../../shared/limits.js';
import {
  commentIdParamsSchema,
  commentPageSchema,
  commentSchema,
  createCommentSchema,
  likeStateSchema,
  pageQuerySchema,
  postIdParamsSchema,
  threadPageSchema,
  updateCommentSchema,
} from '../../../shared/schemas/post.js';
import { requireActiveViewer } from '../../plugins/viewer.js';
import type { CommentsService } from './comments.service.js';
import { perAccount } from '../../plugins/rate-limit.js';

const errors = {
  400: errorBodySchema,
  401: errorBodySchema,
  403: errorBodySchema,
  404: errorBodySchema,
  429: errorBodySchema,
};

/** Counts per account, so a signed-in writer is limited wherever they connect from. */
/** Comments, replies and comment likes (issue: posts, "Comments" and "Likes"). */
export const commentsRoutes: FastifyPluginAsyncZod<{ comments: CommentsService }> = (
  app,
  { comments },
) => {
  const commentLimit = app.limit({ name: 'comment', ...rateLimits.comment, key: perAccount });
  const editLimit = app.limit({ name: 'comment-edit', ...rateLimits.comment, key: perAccount });
  const reactionLimit = app.limit({
    name: 'comment-like',
    ...rateLimits.reaction,
    key: perAccount,
  });

  app.get(
    '/api/posts/:postId/comments',
    {
      schema: {
        params: postIdParamsSchema,
        querystring: pageQuerySchema,
        response: { 200: threadPageSchema, ...errors },
      },
    },
    async (request) =>
      comments.thread(await request.viewer(), request.params.postId, request.query),
  );

  app.get(
    '/api/comments/:commentId/replies',
    {
      schema: {
        params: commentIdParamsSchema,
        querystring: pageQuerySchema,
        response: { 200: commentPageSchema, ...errors },
      },
    },
    async (request) =>
      comments.replies(await request.viewer(), request.params.commentId, request.query),
  );

  app.post(
    '/api/posts/:postId/comments',
    {
      schema: {
        params: postIdParamsSchema,
        body: createCommentSchema,
        response: { 201: commentSchema, ...errors },
      },
      preHandler: [commentLimit],
    },
    async (request, reply) => {
      const viewer = await requireActiveViewer(request);
      const comment = await comments.create(viewer, request.params.postId, request.body);
      return reply.status(201).send(comment);
    },
  );

  app.patch(
    '/api/comments/:commentId',
    {
      schema: {
        params: commentIdParamsSchema,
        body: updateCommentSchema,
        response: { 200: commentSchema, ...errors },
      },
      preHandler: [editLimit],
    },
    async (request) =>
      comments.update(await requireActiveViewer(request), request.params.commentId, request.body),
  );

  app.delete(
    '/api/comments/:commentId',
    {
      schema: { params: commentIdParamsSchema, response: { 204: z.null(), ...errors } },
    },
    async (request, reply) => {
      await comments.delete(await requireActiveViewer(request), request.params.commentId);
      return reply.status(204).send(null);
    },
  );

  app.put(
    '/api/comments/:commentId/like',
    {
      schema: { params: commentIdParamsSchema, response: { 200: likeStateSchema, ...errors } },
      preHandler: [reactionLimit],
    },
    async (request) => comments.like(await requireActiveViewer(request), request.params.commentId),
  );

  app.delete(
    '/api/comments/:commentId/like',
    {
      schema: { params: commentIdParamsSchema, response: { 200: likeStateSchema, ...errors } },
      preHandler: [reactionLimit],
    },
    async (request) =>
      comments.unlike(await requireActiveViewer(request), request.params.commentId),
  );

  return Promise.resolve();
};
