import { z } from 'zod';
import { limits } from '../limits.js';
import { authorSchema, pageLimitSchema, storedHashtagSchema } from './post.js';

/**
 * Search (issue: notifications and search §3). One text box: words, "quoted phrases", from:username and
 * #tag (search-query.ts reads it); the server turns it into SQLite FTS5 or PostgreSQL full-text search.
 */
export const searchTextSchema = z
  .string({ error: 'Type something to search for.' })
  .trim()
  .min(1, 'Type something to search for.')
  .max(limits.search.maxQuery, `Keep searches to ${String(limits.search.maxQuery)} characters.`);

/** GET /api/search/people?q=: by username or name, prefix-matched, as people type. */
export const peopleSearchQuerySchema = z.object({
  q: searchTextSchema,
  limit: z.coerce
    .number({ error: 'Use a number.' })
    .int('Use a whole number.')
    .min(1, 'Ask for at least one person.')
    .max(limits.search.peopleMax, `Ask for at most ${String(limits.search.peopleMax)} people.`)
    .default(limits.search.peopleDefault),
});
export const peopleResultSchema = z.object({ items: z.array(authorSchema) });
export type PeopleResult = z.infer<typeof peopleResultSchema>;

/**
 * A page of post results: ranked by relevance with recency, so the cursor is a position in the ranking
 * (an opaque string), not an id.
 */
export const searchCursorSchema = z.string().regex(/^[0-9]{1,4}$/, 'Not a valid cursor.');
export const postSearchQuerySchema = z.object({
  q: searchTextSchema,
  cursor: searchCursorSchema.optional(),
  limit: pageLimitSchema,
});
export type PostSearchQuery = z.infer<typeof postSearchQuerySchema>;

/** One of the day's most used tags. */
export const trendingTagSchema = z.object({
  tag: storedHashtagSchema,
  /** Posts with it in the last day. */
  posts: z.number().int().min(1),
  /** Different people who used it in the last day. */
  people: z.number().int().min(1),
});
export type TrendingTag = z.infer<typeof trendingTagSchema>;
export const trendingTagsSchema = z.object({ items: z.array(trendingTagSchema) });
