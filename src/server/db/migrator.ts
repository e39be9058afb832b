import { Migrator, PostgresAdapter, sql, type Kysely } from 'kysely';
import type { Database } from './schema.js';
import { migrationProvider } from './migrations/index.js';

export interface MigrationReport {
  applied: string[];
}

/** Brings the database to the latest schema; one history serves SQLite and PostgreSQL (ADR 0001). */
export async function migrateToLatest(db: Kysely<Database>): Promise<MigrationReport> {
  const migrator = new Migrator({ db, provider: migrationProvider });
  const { error, results } = await withTemporariesOnDisk(db, () => migrator.migrateToLatest());
  const failed = results?.find((result) => result.status === 'Error');
  if (error || failed) {
    const cause = error instanceof Error ? error : new Error('unknown error');
    throw new Error(`Migration ${failed?.migrationName ?? ''} failed: ${cause.message}`, { cause });
  }
  return {
    applied: (results ?? []).filter((r) => r.status === 'Success').map((r) => r.migrationName),
  };
}

/**
 * Runs `work` with SQLite's temporary structures on disk, then puts the connection's setting back. The
 * server keeps them in memory (ADR 0050), where an index that a migration builds would sort its whole table;
 * on disk, SQLite sorts it in bounded runs. PostgreSQL has no such setting.
 */
export async function withTemporariesOnDisk<T>(
  db: Kysely<Database>,
  work: () => Promise<T>,
): Promise<T> {
  if (db.getExecutor().adapter instanceof PostgresAdapter) return work();
  const { rows } = await sql<{ temp_store: number }>`pragma temp_store`.execute(db);
  const previous = rows[0]?.temp_store ?? 0;
  await sql`pragma temp_store = file`.execute(db);
  try {
    return await work();
  } finally {
    await sql`pragma temp_store = ${sql.raw(String(previous))}`.execute(db);
  }
}
