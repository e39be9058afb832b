import { z } from 'zod';
import { limits } from '../limits.js';
import { isReservedUsername } from '../paths.js';
import { roles } from '../roles.js';

export const roleSchema = z.enum(roles, { error: 'Choose user, moderator or admin.' });

/**
 * Whether a suspension that began at `since` and ends at `until` (null: indefinitely) holds at `now`: one
 * rule for the server's checks, the presenter and the web app, so an expired one lapses everywhere at once.
 */
export function isSuspended(since: string | null, until: string | null, now = Date.now()): boolean {
  return since !== null && (until === null || Date.parse(until) > now);
}

/**
 * The signed-in account's own suspension (ADR 0021), shown on the page that explains it. `until` is null
 * for an indefinite one.
 */
export const suspensionSchema = z.object({
  reason: z.string(),
  since: z.string(),
  until: z.string().nullable(),
});
export type Suspension = z.infer<typeof suspensionSchema>;

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
  /** 750×250 rendition of the same cover for narrow screens, or null (none, or stored before it existed). */
  coverSmall: z.string().nullable(),
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
  /** Suspended by moderators (ADR 0021): the profile says so; the reason is the account's own to read. */
  suspended: z.boolean(),
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
  /** The account's current suspension, or null. */
  suspension: suspensionSchema.nullable(),
  /** Approval mode: signed up and waiting for a moderator (as against deactivated later). */
  awaitingApproval: z.boolean(),
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
