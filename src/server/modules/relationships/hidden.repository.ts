import { sql, type Kysely, type RawBuilder, type SqlBool } from 'kysely';
import type { Database } from '../../db/schema.js';

/**
 * The filters every list applies for a signed-in viewer (ADR 0022). Each is a NOT EXISTS probe of the
 * blocks and mutes primary keys (or their reverse index) with the viewer's id and one author column, so it
 * costs an index lookup per row read; anonymous viewers skip them.
 */

/** Now, as stored timestamps compare with it on both dialects (ISO-8601 text). */
function nowText(): string {
  return new Date().toISOString();
}

/** Neither the viewer nor `authorColumn`'s user blocks the other. */
export function notBlockedEitherWay(viewerId: string, authorColumn: string): RawBuilder<SqlBool> {
  const author = sql.ref(authorColumn);
  return sql<SqlBool>`(not exists (select 1 from ${sql.table('blocks')} where ${sql.ref('blocks.blockerId')} = ${viewerId} and ${sql.ref('blocks.blockedId')} = ${author}) and not exists (select 1 from ${sql.table('blocks')} where ${sql.ref('blocks.blockerId')} = ${author} and ${sql.ref('blocks.blockedId')} = ${viewerId}))`;
}

/** The viewer does not mute `authorColumn`'s user, or the mute has run out. */
export function notMuted(viewerId: string, authorColumn: string): RawBuilder<SqlBool> {
  return sql<SqlBool>`not exists (select 1 from ${sql.table('mutes')} where ${sql.ref('mutes.muterId')} = ${viewerId} and ${sql.ref('mutes.mutedId')} = ${sql.ref(authorColumn)} and (${sql.ref('mutes.expiresAt')} is null or ${sql.ref('mutes.expiresAt')} > ${nowText()}))`;
}

/** Content the viewer sees in feeds and threads: not blocked either way, and not muted. */
export function visibleAuthor(viewerId: string, authorColumn: string): RawBuilder<SqlBool> {
  return sql<SqlBool>`(${notBlockedEitherWay(viewerId, authorColumn)} and ${notMuted(viewerId, authorColumn)})`;
}

/** Whether either of two users blocks the other. */
export async function blockedEitherWay(
  db: Kysely<Database>,
  a: string,
  b: string,
): Promise<boolean> {
  const row = await db
    .selectFrom('blocks')
    .select('blockerId')
    .where((eb) =>
      eb.or([
        eb.and([eb('blockerId', '=', a), eb('blockedId', '=', b)]),
        eb.and([eb('blockerId', '=', b), eb('blockedId', '=', a)]),
      ]),
    )
    .executeTakeFirst();
  return row !== undefined;
}

/**
 * Of `recipients`, those who must hear nothing from `actorId`: they block or mute the actor, or the actor
 * blocks them. Two queries, whatever the number of recipients.
 */
export async function recipientsHiding(
  db: Kysely<Database>,
  actorId: string,
  recipients: readonly string[],
): Promise<Set<string>> {
  if (recipients.length === 0) return new Set();
  const [blocks, mutes] = await Promise.all([
    db
      .selectFrom('blocks')
      .select(['blockerId', 'blockedId'])
      .where((eb) =>
        eb.or([
          eb.and([eb('blockerId', 'in', [...recipients]), eb('blockedId', '=', actorId)]),
          eb.and([eb('blockerId', '=', actorId), eb('blockedId', 'in', [...recipients])]),
        ]),
      )
      .execute(),
    db
      .selectFrom('mutes')
      .select('muterId')
      .where('muterId', 'in', [...recipients])
      .where('mutedId', '=', actorId)
      .where((eb) => eb.or([eb('expiresAt', 'is', null), eb('expiresAt', '>', nowText())]))
      .execute(),
  ]);
  const hiding = new Set<string>();
  for (const row of blocks) hiding.add(row.blockerId === actorId ? row.blockedId : row.blockerId);
  for (const row of mutes) hiding.add(row.muterId);
  return hiding;
}
