import { PostgresAdapter, sql, type Kysely } from 'kysely';

/** Column types that mean the same on both dialects (ADR 0001), matching what Better Auth expects. */
export function columnTypes(db: Kysely<unknown>) {
  const isPostgres = db.getExecutor().adapter instanceof PostgresAdapter;
  return {
    isPostgres,
    timestamp: isPostgres ? sql`timestamptz` : sql`date`,
    boolean: isPostgres ? sql`boolean` : sql`integer`,
    now: sql`CURRENT_TIMESTAMP`,
  };
}
