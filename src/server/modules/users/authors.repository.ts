import type { ExpressionBuilder } from 'kysely';
import type { Database } from '../../db/schema.js';

/** The author columns a list query selects alongside its rows, so no list looks authors up one by one. */
export interface AuthorColumns {
  authorUid: string;
  authorUsername: string | null;
  authorFirstName: string | null;
  authorLastName: string | null;
  authorDisplayName: string | null;
  authorActive: boolean | number | null;
  authorAvatarRenditions: string | null;
}

/**
 * Selections for a query that joined `users as author`; add `authorAvatarRenditions` for the avatar.
 */
export const authorSelection = [
  'author.id as authorUid',
  'author.username as authorUsername',
  'author.firstName as authorFirstName',
  'author.lastName as authorLastName',
  'author.displayName as authorDisplayName',
  'author.active as authorActive',
] as const;

/** The avatar renditions of `author`, as a correlated subquery (one indexed lookup per row, in the same query). */
export function authorAvatarRenditions(
  eb: ExpressionBuilder<Database & { author: Database['users'] }, 'author'>,
) {
  return eb
    .selectFrom('media')
    .select('media.renditions')
    .whereRef('media.id', '=', 'author.avatarMediaId')
    .as('authorAvatarRenditions');
}
