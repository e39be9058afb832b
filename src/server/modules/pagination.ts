import type { Page } from '../../shared/schemas/post.js';

/**
 * A keyset page (ADR 0007) of rows read with one more than `limit`: the first `limit` rows, and the cursor of
 * the last one shown when that extra row was found, so the client learns of a next page without a count.
 */
export function toPage<T>(
  rows: readonly T[],
  limit: number,
  cursorOf: (row: T) => string,
): Page<T> {
  const items = rows.slice(0, limit);
  const last = items.at(-1);
  return { items, nextCursor: rows.length > limit && last !== undefined ? cursorOf(last) : null };
}
