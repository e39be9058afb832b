import { Migrator, type Kysely } from 'kysely';
import type { Database } from './schema.js';
import { migrationProvider } from './migrations/index.js';

export interface MigrationReport {
  applied: string[];
}

/** Brings the database to the latest schema; one history serves SQLite and PostgreSQL (ADR 0001). */
export async function migrateToLatest(db: Kysely<Database>): Promise<MigrationReport> {
  const migrator = new Migrator({ db, provider: migrationProvider });
  const { error, results } = await migrator.migrateToLatest();
  const failed = results?.find((result) => result.status === 'Error');
  if (error || failed) {
    const cause = error instanceof Error ? error : new Error('unknown error');
    throw new Error(`Migration ${failed?.migrationName ?? ''} failed: ${cause.message}`, { cause });
  }
  return {
    applied: (results ?? []).filter((r) => r.status === 'Success').map((r) => r.migrationName),
  };
}
