import { z } from 'zod';
import { limits } from '../limits.js';
import { isReservedUsername } from '../paths.js';

export const roleSchema = z.enum(['user', 'admin']);
export type Role = z.infer<typeof roleSchema>;

/** spec §3: the user document, as read by the navigation, guards and profile. Never carries the email. */
export const userDocumentSchema = z.object({
  uid: z.string(),
  username: z.string().nullable(),
  firstName: z.string().nullable(),
  lastName: z.string().nullable(),
  displayName: z.string().nullable(),
  /** 400×400 WebP, or null for the default image (spec §3). */
  avatar: z.string().nullable(),
  /** 96×96 rendition of the same avatar, for small places (menus, lists). */
  avatarThumb: z.string().nullable(),
  avatarAlt: z.string().nullable(),
  /** 1500×500 WebP, or null for the default cover (spec §3). */
  cover: z.string().nullable(),
  coverAlt: z.string().nullable(),
  bio: z.string().nullable(),
  /**
   * The accounts the bio @mentions that exist, lowercased: only these link (issue: notifications, search
   * and the everyday things), so a mention of no one stays text. Read with the document, so it is current.
   */
  bioMentions: z.array(z.string()),
  website: z.string().nullable(),
  role: roleSchema,
  active: z.boolean(),
  createdAt: z.string(),
  /** Shown on the profile and kept live with the document (issue: posts). */
  counts: z.object({
    posts: z.number().int(),
    followers: z.number().int(),
    following: z.number().int(),
  }),
});
export type UserDocument = z.infer<typeof userDocumentSchema>;

/** The signed-in user's own view: the public document plus private account fields. */
export const meSchema = userDocumentSchema.extend({
  email: z.string(),
  /** When the username may next be changed (30-day rule), or null when it may be now. */
  usernameChangeAvailableAt: z.string().nullable(),
});
export type Me = z.infer<typeof meSchema>;

const usernamePattern = /^[a-z0-9_]+$/;

/** Usernames: 3–30 of [a-z0-9_], stored lowercase, never a reserved route word. */
export const usernameSchema = z
  .string({ error: 'Enter a username.' })
  .trim()
  .toLowerCase()
  .min(limits.username.min, `Use at least ${limits.username.min} characters.`)
  .max(limits.username.max, `Use at most ${limits.username.max} characters.`)
  .regex(usernamePattern, 'Use only letters, digits and underscores.')
  .refine((name) => !isReservedUsername(name), 'That name is reserved. Please choose another.');

export const personNameSchema = z
  .string()
  .trim()
  .max(limits.name.max, `Use at most ${limits.name.max} characters.`)
  .refine((value) => !/\p{Cc}/u.test(value), 'Remove control characters.');

export const uidParamsSchema = z.object({
  uid: z
    .string()
    .min(1)
    .max(64)
    .regex(/^[A-Za-z0-9_-]+$/, 'Not a valid user id.'),
});

export const usernameParamsSchema = z.object({
  // Control characters name nobody, and PostgreSQL refuses NUL in text: stop them before any query.
  username: z
    .string()
    .min(1)
    .max(64)
    .refine((value) => !/\p{Cc}/u.test(value), 'Not a valid username.'),
});
