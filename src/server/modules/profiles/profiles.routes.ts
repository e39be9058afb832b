import multipart from '@fastify/multipart';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { errorBodySchema } from '../../../shared/errors.js';
import { limits, rateLimits } from '../../../shared/limits.js';
import { profileImageFields } from '../../../shared/schemas/profile.js';
import { uidParamsSchema, userDocumentSchema } from '../../../shared/schemas/user.js';
import { readForm } from '../../media/multipart.js';
import { requireActiveViewer } from '../../plugins/viewer.js';
import type { UploadedImage, ProfilesService } from './profiles.service.js';

const errors = {
  400: errorBodySchema,
  401: errorBodySchema,
  403: errorBodySchema,
  404: errorBodySchema,
  409: errorBodySchema,
  413: errorBodySchema,
  415: errorBodySchema,
  429: errorBodySchema,
};

/** Profile editing: JSON for text-only edits, multipart/form-data when images come along. */
export const profilesRoutes: FastifyPluginAsyncZod<{ profiles: ProfilesService }> = async (
  app,
  { profiles },
) => {
  await app.register(multipart, {
    limits: { fileSize: limits.upload.maxBytes, files: profileImageFields.length },
  });

  app.patch(
    '/api/users/:uid/profile',
    {
      schema: { params: uidParamsSchema, response: { 200: userDocumentSchema, ...errors } },
      bodyLimit: 2 * limits.upload.maxBytes + 256 * 1024,
      preHandler: [app.limit({ name: 'profile-edit', ...rateLimits.profileEdit })],
    },
    async (request) => {
      const viewer = await requireActiveViewer(request);
      const { fields, files } = request.isMultipart()
        ? await readForm(request, profileImageFields)
        : { fields: request.body ?? {}, files: [] };
      return profiles.update(viewer, request.params.uid, fields, files as UploadedImage[]);
    },
  );
};
