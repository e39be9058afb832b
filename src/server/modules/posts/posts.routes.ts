import multipart from '@fastify/multipart';
import { z } from 'zod';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { errorBodySchema } from '../../../shared/errors.js';
import { limits, rateLimits } from '../../../shared/limits.js';
import {
  authorPageSchema,
  feedQuerySchema,
  likeStateSchema,
  pageQuerySchema,
  postIdParamsSchema,
  postImageFields,
  postPageSchema,
  postVersionsSchema,
  postViewSchema,
} from '../../../shared/schemas/post.js';
import { uidParamsSchema } from '../../../shared/schemas/user.js';
import { readForm } from '../../media/multipart.js';
import { perAccount } from '../../plugins/rate-limit.js';
import { requireActiveViewer } from '../../plugins/viewer.js';
import { tooManyImages, type PostsService } from './posts.service.js';

const errors = {
  400: errorBodySchema,
  401: errorBodySchema,
  403: errorBodySchema,
  404: errorBodySchema,
  413: errorBodySchema,
  415: errorBodySchema,
  429: errorBodySchema,
};

/** Posts, the feed and likes (issue: posts). Handlers parse, call one service method, return. */
export const postsRoutes: FastifyPluginAsyncZod<{ posts: PostsService }> = async (
  app,
  { posts },
) => {
  await app.register(multipart, {
    limits: { fileSize: limits.upload.maxBytes, files: postImageFields.length },
  });
  const reactionLimit = app.limit({ name: 'reaction', ...rateLimits.reaction, key: perAccount });

  app.get(
    '/api/feed',
    { schema: { querystring: feedQuerySchema, response: { 200: postPageSchema, ...errors } } },
    async (request) => posts.feed(await request.viewer(), request.query),
  );

  app.get(
    '/api/users/:uid/posts',
    {
      schema: {
        params: uidParamsSchema,
        querystring: pageQuerySchema,
        response: { 200: postPageSchema, ...errors },
      },
    },
    async (request) => posts.byAuthor(await request.viewer(), request.params.uid, request.query),
  );

  app.post(
    '/api/posts',
    {
      schema: { response: { 201: postViewSchema, ...errors } },
      bodyLimit: limits.post.maxImages * limits.upload.maxBytes + 256 * 1024,
      preHandler: [app.limit({ name: 'post', ...rateLimits.post, key: perAccount })],
    },
    async (request, reply) => {
      const viewer = await requireActiveViewer(request);
      const { fields, files } = request.isMultipart()
        ? await readForm(request, postImageFields, { tooManyFiles: tooManyImages })
        : { fields: request.body ?? {}, files: [] };
      const post = await posts.create(viewer, fields, files);
      return reply.code(201).send(post);
    },
  );

  app.get(
    '/api/posts/:postId',
    { schema: { params: postIdParamsSchema, response: { 200: postViewSchema, ...errors } } },
    async (request) => posts.get(await request.viewer(), request.params.postId),
  );

  app.patch(
    '/api/posts/:postId',
    {
      schema: { params: postIdParamsSchema, response: { 200: postViewSchema, ...errors } },
      preHandler: [app.limit({ name: 'post-edit', ...rateLimits.post, key: perAccount })],
    },
    async (request) =>
      posts.update(await requireActiveViewer(request), request.params.postId, request.body),
  );

  app.delete(
    '/api/posts/:postId',
    { schema: { params: postIdParamsSchema, response: { 204: z.null(), ...errors } } },
    async (request, reply) => {
      await posts.delete(await requireActiveViewer(request), request.params.postId);
      return reply.code(204).send(null);
    },
  );

  app.get(
    '/api/posts/:postId/versions',
    { schema: { params: postIdParamsSchema, response: { 200: postVersionsSchema, ...errors } } },
    (request) => posts.versions(request.params.postId),
  );

  for (const [method, liked] of [
    ['PUT', true],
    ['DELETE', false],
  ] as const) {
    app.route({
      method,
      url: '/api/posts/:postId/like',
      schema: { params: postIdParamsSchema, response: { 200: likeStateSchema, ...errors } },
      preHandler: [reactionLimit],
      handler: async (request) =>
        posts.setLike(await requireActiveViewer(request), request.params.postId, liked),
    });
  }

  app.get(
    '/api/posts/:postId/likes',
    {
      schema: {
        params: postIdParamsSchema,
        querystring: pageQuerySchema,
        response: { 200: authorPageSchema, ...errors },
      },
    },
    (request) => posts.likers(request.params.postId, request.query),
  );
};
