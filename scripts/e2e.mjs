// Runs the end-to-end suite: builds the web app when it is stale, runs Playwright on SQLite, then (when
// TEST_DATABASE_URL is set) once more on a fresh PostgreSQL database that is dropped afterwards.
import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { existsSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import pg from 'pg';

const root = fileURLToPath(new URL('..', import.meta.url));
const forwardedArgs = process.argv.slice(2);

/** Newest modification time of any file under `dir` (0 when it does not exist). */
function newestMtime(dir) {
  if (!existsSync(dir)) return 0;
  let newest = 0;
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    const time = entry.isDirectory() ? newestMtime(path) : statSync(path).mtimeMs;
    if (time > newest) newest = time;
  }
  return newest;
}

function run(command, args, env = process.env) {
  return new Promise((resolve) => {
    const child = spawn(command, args, { cwd: root, env, stdio: 'inherit' });
    child.on('error', (error) => {
      console.error(error);
      resolve(1);
    });
    child.on('exit', (code, signal) => resolve(code ?? (signal ? 1 : 0)));
  });
}

async function buildWebIfStale() {
  const index = join(root, 'dist/web/index.html');
  // The build also runs code of scripts/ (the web contract, the delivery plugins) and vite.config.ts.
  const sources = Math.max(
    newestMtime(join(root, 'src/web')),
    newestMtime(join(root, 'src/shared')),
    newestMtime(join(root, 'scripts')),
    statSync(join(root, 'vite.config.ts')).mtimeMs,
  );
  if (existsSync(index) && statSync(index).mtimeMs >= sources) return 0;
  console.log('e2e: building the web app (dist/web is missing or older than its sources)');
  return run('npm', ['run', 'build:web']);
}

/** One Playwright run; returns its exit code and counts. */
async function playwright(label, databaseUrl) {
  const summaryFile = join(
    tmpdir(),
    `hearth-e2e-summary-${label}-${randomBytes(4).toString('hex')}.json`,
  );
  const env = { ...process.env, HEARTH_E2E_DB_LABEL: label, HEARTH_E2E_SUMMARY_FILE: summaryFile };
  delete env.DATABASE_URL;
  delete env.HEARTH_E2E_BASE_URL;
  if (databaseUrl) env.DATABASE_URL = databaseUrl;
  const code = await run('npx', ['playwright', 'test', ...forwardedArgs], env);
  let counts = { passed: 0, failed: code === 0 ? 0 : 1, skipped: 0 };
  if (existsSync(summaryFile)) {
    counts = JSON.parse(readFileSync(summaryFile, 'utf8'));
    rmSync(summaryFile, { force: true });
  }
  return { code, counts };
}

async function withFreshPostgres(adminUrl, body) {
  const name = `hearth_e2e_${randomBytes(6).toString('hex')}`;
  const admin = new pg.Client({ connectionString: adminUrl });
  await admin.connect();
  try {
    await admin.query(`CREATE DATABASE ${name}`);
  } finally {
    await admin.end();
  }
  const url = new URL(adminUrl);
  url.pathname = `/${name}`;
  try {
    return await body(url.toString());
  } finally {
    const dropper = new pg.Client({ connectionString: adminUrl });
    try {
      await dropper.connect();
      await dropper.query(
        'SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = $1 AND pid <> pg_backend_pid()',
        [name],
      );
      await dropper.query(`DROP DATABASE IF EXISTS ${name}`);
    } catch (error) {
      console.error(`e2e: could not drop database ${name}:`, error);
    } finally {
      await dropper.end().catch(() => undefined);
    }
  }
}

// Ctrl-C reaches Playwright through the process group; staying alive lets the PostgreSQL database be dropped.
for (const signal of ['SIGINT', 'SIGTERM']) {
  process.on(signal, () => {
    console.error(`e2e: ${signal} received; finishing clean-up`);
  });
}

const buildCode = await buildWebIfStale();
if (buildCode !== 0) {
  console.error('e2e: the web build failed');
  console.log('e2e: 0 passed, 1 failed');
  process.exit(buildCode);
}

const results = [await playwright('sqlite')];

const testDatabaseUrl = process.env.TEST_DATABASE_URL;
if (testDatabaseUrl) {
  try {
    results.push(await withFreshPostgres(testDatabaseUrl, (url) => playwright('postgres', url)));
  } catch (error) {
    console.error('e2e: the PostgreSQL run could not be set up:', error);
    results.push({ code: 1, counts: { passed: 0, failed: 1, skipped: 0 } });
  }
} else {
  console.log('e2e: skipping the PostgreSQL run: TEST_DATABASE_URL is not set');
}

const total = results.reduce(
  (sum, { counts }) => ({
    passed: sum.passed + counts.passed,
    failed: sum.failed + counts.failed,
    skipped: sum.skipped + counts.skipped,
  }),
  { passed: 0, failed: 0, skipped: 0 },
);
const failed = results.some(({ code }) => code !== 0);
console.log(`e2e: ${total.passed} passed, ${total.failed} failed, ${total.skipped} skipped`);
process.exit(failed ? 1 : 0);
