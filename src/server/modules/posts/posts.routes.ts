import multipart from '@fastify/multipart';
import type { FastifyPluginAsync } from 'fastify';
import { postEndpoints as api } from '../../../shared/contract/endpoints/posts.js';
import { limits } from '../../../shared/limits.js';
import { postImageFields } from '../../../shared/schemas/post.js';
import { pageJson } from '../../http/json-text.js';
import { serve } from '../../http/serve.js';
import { postViewJson, type PostsService } from './posts.service.js';

/** Posts, the feed and likes (issue: posts). Handlers call one service method and return. */
export const postsRoutes: FastifyPluginAsync<{ posts: PostsService }> = async (app, { posts }) => {
  await app.register(multipart, {
    limits: { fileSize: limits.upload.maxBytes, files: postImageFields.length },
  });

  // The lists send each post's text as written once for its document (ADR 0040).
  serve(app, api.getFeed, async ({ viewer, query }) =>
    pageJson(await posts.feed(await viewer(), query), postViewJson),
  );
  serve(app, api.getUserPosts, async ({ viewer, params, query }) =>
    pageJson(await posts.byAuthor(await viewer(), params.uid, query), postViewJson),
  );
  serve(app, api.createPost, ({ viewer, body, files }) => posts.create(viewer, body, files));
  serve(app, api.getPost, async ({ viewer, params }) => posts.get(await viewer(), params.postId));
  serve(app, api.updatePost, ({ viewer, params, body }) =>
    posts.update(viewer, params.postId, body),
  );
  serve(app, api.deletePost, async ({ viewer, params }) => {
    await posts.delete(viewer, params.postId);
    return null;
  });
  serve(app, api.getPostVersions, ({ params }) => posts.versions(params.postId));
  serve(app, api.likePost, ({ viewer, params }) => posts.setLike(viewer, params.postId, true));
  serve(app, api.unlikePost, ({ viewer, params }) => posts.setLike(viewer, params.postId, false));
  serve(app, api.getPostLikers, async ({ viewer, params, query }) =>
    posts.likers(params.postId, query, await viewer()),
  );
};
