import { loadConfig } from '../config.js';
import { openDatabase } from './database.js';
import { migrateToLatest } from './migrator.js';

/** `npm run db:migrate`: applies pending migrations to DATA_DIR's SQLite file or DATABASE_URL. */
async function main(): Promise<void> {
  const config = loadConfig();
  const handle = openDatabase(config);
  try {
    const { applied } = await migrateToLatest(handle.db);
    process.stdout.write(
      applied.length
        ? `Applied ${applied.length} migration(s) to ${handle.describe}: ${applied.join(', ')}\n`
        : `${handle.describe} is up to date.\n`,
    );
  } finally {
    await handle.close();
  }
}

main().catch((error: unknown) => {
  process.stderr.write(`${error instanceof Error ? error.message : String(error)}\n`);
  process.exitCode = 1;
});
