import { z } from 'zod';
import { relationshipSchema } from './follow.js';
import { authorSchema, pageLimitSchema, pageSchema } from './post.js';

/**
 * Block and mute (issue: moderation and administration §2, ADR 0022). A block hides both people from each
 * other and stops every interaction between them; a mute hides the muted person's posts and comments from
 * the muter alone, silently, for a set time or until lifted.
 */

/** How long a mute lasts: an hour, a day, a week, thirty days, or until it is lifted. */
export const muteDurations = ['1h', '1d', '7d', '30d', 'indefinite'] as const;
export const muteDurationSchema = z.enum(muteDurations, {
  error: 'Choose 1 hour, 1 day, 7 days, 30 days or until unmuted.',
});
export type MuteDuration = z.infer<typeof muteDurationSchema>;

/** Milliseconds of each timed mute; `indefinite` has none. */
export const muteDurationMs: Record<Exclude<MuteDuration, 'indefinite'>, number> = {
  '1h': 60 * 60_000,
  '1d': 24 * 60 * 60_000,
  '7d': 7 * 24 * 60 * 60_000,
  '30d': 30 * 24 * 60 * 60_000,
};

/** PUT /api/users/{uid}/mute: for how long; until unmuted when left out. */
export const muteBodySchema = z
  .object({ duration: muteDurationSchema.default('indefinite') })
  .default({ duration: 'indefinite' });
export type MuteBody = z.input<typeof muteBodySchema>;

/**
 * How the viewer and another user relate, follows included. `blockedBy` says only that the other person
 * blocks the viewer: their profile shows as unavailable rather than empty (ADR 0022).
 */
export const fullRelationshipSchema = relationshipSchema.extend({
  blocking: z.boolean(),
  blockedBy: z.boolean(),
  muting: z.boolean(),
  /** When the viewer's mute of this person ends by itself; null when not muted or muted until unmuted. */
  muteExpiresAt: z.string().nullable(),
});
export type FullRelationship = z.infer<typeof fullRelationshipSchema>;

/** A person the viewer blocks or mutes, with since when and, for a timed mute, until when. */
export const relationshipListItemSchema = authorSchema.extend({
  since: z.string(),
  /** Mutes only: when the mute ends by itself; null for blocks and mutes kept until lifted. */
  expiresAt: z.string().nullable(),
});
export type RelationshipListItem = z.infer<typeof relationshipListItemSchema>;
export const relationshipListPageSchema = pageSchema(relationshipListItemSchema);

/** The cursor of a block or mute list: when the last row began and whom it names. */
export const relationshipCursorSchema = z
  .string()
  .max(120)
  .regex(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z~[A-Za-z0-9_-]{1,64}$/, 'Not a valid cursor.');

/** `?cursor=&limit=` of the block and mute lists. */
export const relationshipListQuerySchema = z.object({
  cursor: relationshipCursorSchema.optional(),
  limit: pageLimitSchema,
});
export type RelationshipListQuery = z.infer<typeof relationshipListQuerySchema>;

/**
 * GET /api/me/hidden-authors: everyone whose content the viewer does not see (people they block, who block
 * them, or whom they mute), so the web app can drop live arrivals. Bounded by
 * `limits.relationships.hiddenAuthorsMax`; `truncated` says the list was cut (the server still filters).
 */
export const hiddenAuthorsSchema = z.object({
  authors: z.array(z.string()),
  truncated: z.boolean(),
});
export type HiddenAuthors = z.infer<typeof hiddenAuthorsSchema>;

/**
 * The live per-account signal (topic `relationships/{uid}`): changes whenever someone the account blocks,
 * is blocked by or mutes comes or goes, so every open tab refetches what it hides.
 */
export const relationshipsSignalSchema = z.object({ revision: z.string() });
export type RelationshipsSignal = z.infer<typeof relationshipsSignalSchema>;
