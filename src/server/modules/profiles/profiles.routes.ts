import multipart from '@fastify/multipart';
import type { FastifyPluginAsync } from 'fastify';
import { profileEndpoints as api } from '../../../shared/contract/endpoints/profiles.js';
import { limits } from '../../../shared/limits.js';
import { profileImageFields } from '../../../shared/schemas/profile.js';
import { serve } from '../../http/serve.js';
import type { ProfilesService } from './profiles.service.js';

/** Profile editing: JSON for text-only edits, multipart/form-data when images come along. */
export const profilesRoutes: FastifyPluginAsync<{ profiles: ProfilesService }> = async (
  app,
  { profiles },
) => {
  await app.register(multipart, {
    limits: { fileSize: limits.upload.maxBytes, files: profileImageFields.length },
  });

  serve(app, api.updateProfile, ({ viewer, params, body, files }) =>
    profiles.update(viewer, params.uid, body, files),
  );
};
