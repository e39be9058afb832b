import { limits } from '../../limits.js';
import { profileImageFields, profileUpdateSchema } from '../../schemas/profile.js';
import { uidParamsSchema, userDocumentSchema } from '../../schemas/user.js';
import { defineEndpoint } from '../endpoint.js';

/** Profile editing (issue: profiles). */
export const profileEndpoints = {
  updateProfile: defineEndpoint({
    id: 'updateProfile',
    method: 'PATCH',
    path: '/api/users/{uid}/profile',
    tag: 'Profiles',
    summary: 'Edit a profile',
    description: `The owner only. JSON for text alone, or multipart/form-data with the files \`avatar\` and \`cover\`. A field left out stays as it is; empty text or null clears it. \`removeAvatar\` and \`removeCover\` remove an image, \`avatarAlt\` and \`coverAlt\` describe it. The username changes at most once in ${limits.usernameChange.cooldownDays} days, and the old one points here for ${limits.usernameChange.reserveDays} days. The whole edit is saved, or none of it. Answers the updated document, which subscribers of \`users/{uid}\` receive too.`,
    access: 'active',
    params: uidParamsSchema,
    form: {
      fields: profileUpdateSchema,
      files: profileImageFields,
      maxBytes: profileImageFields.length * limits.upload.maxBytes + 256 * 1024,
    },
    status: 200,
    response: userDocumentSchema,
    errors: [404, 409],
    rateLimit: ['profile-edit'],
  }),
} as const;
