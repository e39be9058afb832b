import { z } from 'zod';
import { limits } from '../limits.js';
import { altTextRule, bioRule } from '../text-rules.js';
import { ruledTextSchema } from './text.js';
import { personNameSchema, usernameSchema } from './user.js';

/** Empty text clears a field. */
const optionalText = (schema: z.ZodType<string, string>) =>
  z
    .union([schema, z.null()])
    .transform((value) => (value === null || value === '' ? null : value))
    .optional();

export const bioSchema = ruledTextSchema(bioRule);

/** http and https only: a `javascript:` or `data:` link is refused (issue: profiles). */
export const websiteSchema = z
  .string()
  .trim()
  .max(limits.website.max, `Use at most ${limits.website.max} characters.`)
  .refine(
    (value) => {
      if (value === '') return true;
      try {
        const url = new URL(value);
        return (
          (url.protocol === 'http:' || url.protocol === 'https:') && url.hostname.includes('.')
        );
      } catch {
        return false;
      }
    },
    { message: 'Enter a web address starting with https:// or http://.' },
  );

export const altTextSchema = ruledTextSchema(altTextRule);

/** Form fields arrive as strings in multipart bodies. */
const flag = z
  .union([z.boolean(), z.enum(['true', 'false', 'on', ''])])
  .transform((value) => value === true || value === 'true' || value === 'on')
  .optional();

/** PATCH /api/users/:uid/profile: every field optional; a field left out stays as it is. */
export const profileUpdateSchema = z.object({
  firstName: optionalText(personNameSchema),
  lastName: optionalText(personNameSchema),
  displayName: optionalText(personNameSchema),
  username: usernameSchema.optional(),
  bio: optionalText(bioSchema),
  website: optionalText(websiteSchema),
  avatarAlt: optionalText(altTextSchema),
  coverAlt: optionalText(altTextSchema),
  removeAvatar: flag,
  removeCover: flag,
});
export type ProfileUpdateInput = z.input<typeof profileUpdateSchema>;
export type ProfileUpdate = z.output<typeof profileUpdateSchema>;

/** The multipart file fields of a profile update. */
export const profileImageFields = ['avatar', 'cover'] as const;
export type ProfileImageField = (typeof profileImageFields)[number];
