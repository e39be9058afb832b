import type { Migration, MigrationProvider } from 'kysely';
import * as accounts from './0001-accounts.js';

/** Every migration in order. Static imports, so the same list runs from source and from the build. */
const migrations: Record<string, Migration> = {
  '0001-accounts': accounts,
};

export const migrationProvider: MigrationProvider = {
  getMigrations: () => Promise.resolve(migrations),
};
