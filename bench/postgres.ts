/**
 * `npm run bench -- --postgres` (or BENCH_DATABASE=postgres): the same scenarios on PostgreSQL, on a copy
 * of the SQLite seed (issue 13 §3).
 *
 * The seed is loaded once into a database built by the application's own migrations, each table streamed
 * from SQLite as CSV into `psql \copy` (the fastest load the installed tools allow), with the secondary
 * indexes dropped during the load and rebuilt after, and foreign keys not checked (the rows come from a
 * consistent database). That database is kept as a template named after the seed's cache key, so later
 * runs make their own copy with `CREATE DATABASE … TEMPLATE …` in seconds and drop it at the end.
 *
 * BENCH_POSTGRES_URL names the server's maintenance database (postgres://postgres@127.0.0.1:5432/postgres).
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import SQLite from 'better-sqlite3';
import pg from 'pg';
import { openDatabase } from '../src/server/db/database.js';
import { migrateToLatest } from '../src/server/db/migrator.js';
import { cachesKeptPerKind, isRunning, type SeededDatabase } from './seed.js';

/** Bump when the way the seed is loaded changes, so stale templates are not reused. */
const LOAD_VERSION = 1;

export const adminUrl =
  process.env.BENCH_POSTGRES_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';

/** USER_HZ, the unit of /proc/<pid>/stat CPU times (see load.ts). */
const clockTicksPerSecond = 100;
/** CSV text handed to psql per write: large enough to keep the pipe full, small enough to stay bounded. */
const chunkBytes = 1 << 20;

/** A database URL on the same server as `adminUrl`. */
function urlOf(database: string): string {
  const url = new URL(adminUrl);
  url.pathname = `/${database}`;
  return url.toString();
}

const ident = (name: string) => `"${name.replaceAll('"', '""')}"`;
const literal = (text: string) => `'${text.replaceAll("'", "''")}'`;

async function withAdmin<T>(use: (client: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString: adminUrl });
  await client.connect();
  try {
    return await use(client);
  } finally {
    await client.end();
  }
}

/** One CSV field: NULL unquoted, everything else quoted, so an empty string stays an empty string. */
function csvField(value: unknown): string {
  if (value === null || value === undefined) return '';
  let text: string;
  if (Buffer.isBuffer(value)) text = `\\x${value.toString('hex')}`;
  else if (typeof value === 'string') text = value;
  else if (typeof value === 'number' || typeof value === 'bigint') text = value.toString();
  else throw new Error(`an SQLite value of an unexpected type: ${typeof value}`);
  return `"${text.replaceAll('"', '""')}"`;
}

/** Streams the rows of one SQLite table into the same PostgreSQL table through `psql \copy`. */
async function copyTable(
  source: SQLite.Database,
  target: string,
  table: string,
  columns: string[],
): Promise<number> {
  const list = columns.map(ident).join(', ');
  const psql = spawn(
    'psql',
    [
      target,
      '-X',
      '-q',
      '-v',
      'ON_ERROR_STOP=1',
      '-c',
      'SET session_replication_role = replica',
      '-c',
      `\\copy ${ident(table)} (${list}) FROM pstdin WITH (FORMAT csv)`,
    ],
    { stdio: ['pipe', 'ignore', 'pipe'] },
  );
  let errors = '';
  psql.stderr.setEncoding('utf8').on('data', (chunk: string) => {
    errors += chunk;
  });
  const done = new Promise<number | null>((resolve) => psql.once('close', resolve));
  const write = (text: string) =>
    psql.stdin.write(text)
      ? Promise.resolve()
      : new Promise<void>((resolve) => psql.stdin.once('drain', resolve));
  let rows = 0;
  let chunk = '';
  const statement = source.prepare(`SELECT ${list} FROM ${ident(table)}`).raw(true);
  for (const row of statement.iterate() as Iterable<unknown[]>) {
    chunk += `${row.map(csvField).join(',')}\n`;
    rows += 1;
    if (chunk.length >= chunkBytes) {
      await write(chunk);
      chunk = '';
    }
  }
  if (chunk.length > 0) await write(chunk);
  psql.stdin.end();
  const code = await done;
  if (code !== 0) throw new Error(`loading ${table} into PostgreSQL failed: ${errors.trim()}`);
  return rows;
}

/** Loads the seeded SQLite database into `database`, which the migrations have just created. */
async function load(seeded: SeededDatabase, database: string, log: (line: string) => void) {
  const target = urlOf(database);
  // The seed's own folder is left untouched: the migrations run with an empty one.
  const scratch = mkdtempSync(path.join(tmpdir(), 'hearth-bench-pg-'));
  try {
    const handle = openDatabase({ dataDir: scratch, databaseUrl: target });
    await migrateToLatest(handle.db);
    await handle.close();
  } finally {
    rmSync(scratch, { recursive: true, force: true });
  }

  const client = new pg.Client({ connectionString: target });
  await client.connect();
  const source = new SQLite(path.join(seeded.dataDir, 'hearth.db'), { readonly: true });
  try {
    const { rows: pgColumns } = await client.query<{ table: string; column: string }>(
      `SELECT table_name AS table, column_name AS column FROM information_schema.columns
        WHERE table_schema = 'public' AND is_generated = 'NEVER' AND table_name NOT LIKE 'kysely_%'
        ORDER BY table_name, ordinal_position`,
    );
    const tables = new Map<string, string[]>();
    for (const { table, column } of pgColumns)
      tables.set(table, [...(tables.get(table) ?? []), column]);

    // Secondary indexes are rebuilt once after the load: far faster than inserting through them.
    const { rows: indexes } = await client.query<{ name: string; definition: string }>(
      `SELECT indexname AS name, indexdef AS definition FROM pg_indexes
        WHERE schemaname = 'public' AND indexname NOT IN (SELECT conname FROM pg_constraint)`,
    );
    for (const index of indexes) await client.query(`DROP INDEX ${ident(index.name)}`);

    for (const [table, columns] of tables) {
      const present = new Set(
        source
          .prepare<[], { name: string }>(`SELECT name FROM pragma_table_info('${table}')`)
          .all()
          .map((column) => column.name),
      );
      if (present.size === 0) continue;
      const shared = columns.filter((column) => present.has(column));
      const started = Date.now();
      const rows = await copyTable(source, target, table, shared);
      if (rows > 0) {
        log(
          `  ${table}: ${rows.toLocaleString('en')} rows (${((Date.now() - started) / 1000).toFixed(1)} s)`,
        );
      }
    }

    const started = Date.now();
    for (const index of indexes) await client.query(index.definition);
    log(`  ${indexes.length} indexes rebuilt (${((Date.now() - started) / 1000).toFixed(1)} s)`);

    // Rows came with their ids: identity sequences continue after the largest.
    const { rows: identities } = await client.query<{ table: string; column: string }>(
      `SELECT table_name AS table, column_name AS column FROM information_schema.columns
        WHERE table_schema = 'public' AND (is_identity = 'YES' OR column_default LIKE 'nextval(%')`,
    );
    for (const { table, column } of identities) {
      await client.query(
        `SELECT setval(pg_get_serial_sequence($1, $2), GREATEST(1, (SELECT max(${ident(column)}) FROM ${ident(table)})))`,
        [ident(table), column],
      );
    }
    await client.query('ANALYZE');
  } finally {
    source.close();
    await client.end();
  }
}

const exists = (client: pg.Client, database: string) =>
  client
    .query('SELECT 1 FROM pg_database WHERE datname = $1', [database])
    .then((result) => (result.rowCount ?? 0) > 0);

/** A seed's template: `hearth_bench_seed_v<load version>_<plan>_<cache key digest>`; the plan is group 1. */
const templateName = /^hearth_bench_seed_v\d+_(.+)_[0-9a-f]{12}$/;
/** What a run that was killed leaves: a template half loaded, or its own copy, named with its pid. */
const leftoverName = /^hearth_bench_(?:seed_.+_building|run)_(\d+)(?:_\d+)?$/;

/**
 * Marks `template` as used now (in its comment), then drops the templates of its plan used least recently
 * past `cachesKeptPerKind` (as the SQLite cache keeps its files), and the databases left by runs that are
 * no longer running. A database someone is connected to is not dropped (no FORCE): that drop fails, and is
 * left for a later run.
 */
async function retireStaleDatabases(template: string, log: (line: string) => void): Promise<void> {
  const plan = templateName.exec(template)?.[1];
  await withAdmin(async (client) => {
    await client.query(
      `COMMENT ON DATABASE ${ident(template)} IS ${literal(`used ${new Date().toISOString()}`)}`,
    );
    const { rows } = await client.query<{ datname: string; note: string | null }>(
      `SELECT datname, shobj_description(oid, 'pg_database') AS note FROM pg_database
        WHERE datname LIKE 'hearth\\_bench\\_%'`,
    );
    const templates: { name: string; usedAt: string }[] = [];
    const stale: string[] = [];
    for (const { datname, note } of rows) {
      const leftover = leftoverName.exec(datname)?.[1];
      if (leftover !== undefined) {
        if (!isRunning(Number(leftover))) stale.push(datname);
      } else if (templateName.exec(datname)?.[1] === plan) {
        templates.push({ name: datname, usedAt: /^used (.+)$/.exec(note ?? '')?.[1] ?? '' });
      }
    }
    templates.sort((a, b) => b.usedAt.localeCompare(a.usedAt));
    for (const { name } of templates.slice(cachesKeptPerKind)) {
      if (name !== template) stale.push(name);
    }
    for (const name of stale) {
      try {
        await client.query(`DROP DATABASE IF EXISTS ${ident(name)}`);
        log(`Dropped the stale benchmark database ${name}`);
      } catch {
        // In use: a later run drops it.
      }
    }
  });
}

/** The template database holding `seeded`, loaded now if no earlier run left it. */
export async function seedTemplate(
  seeded: SeededDatabase,
  log: (line: string) => void = console.log,
): Promise<string> {
  const key = path
    .basename(path.dirname(seeded.dataDir))
    .replace(/[^a-z0-9]/gi, '_')
    .toLowerCase();
  const template = `hearth_bench_seed_v${LOAD_VERSION}_${key}`;
  if (await withAdmin((client) => exists(client, template))) {
    await retireStaleDatabases(template, log);
    return template;
  }

  const building = `${template}_building_${process.pid}`;
  log(`Loading the ${seeded.plan.name} seed into PostgreSQL (${template})…`);
  const started = Date.now();
  await withAdmin((client) => client.query(`CREATE DATABASE ${ident(building)}`));
  try {
    await load(seeded, building, log);
    await withAdmin((client) =>
      client.query(`ALTER DATABASE ${ident(building)} RENAME TO ${ident(template)}`),
    );
  } catch (error) {
    await withAdmin((client) =>
      client.query(`DROP DATABASE IF EXISTS ${ident(building)} WITH (FORCE)`),
    );
    throw error;
  }
  log(`  loaded in ${((Date.now() - started) / 1000).toFixed(1)} s`);
  await retireStaleDatabases(template, log);
  return template;
}

export interface PostgresCopy {
  databaseUrl: string;
  /**
   * CPU seconds used so far by each server process (backend) connected to this copy, by pid; null where
   * /proc cannot tell (not Linux, or a server on another machine).
   */
  backendCpu(): Promise<Map<number, number> | null>;
  drop(): Promise<void>;
}

/** CPU seconds the backends used between two readings; a backend that exited meanwhile is not counted. */
export function backendCpuDelta(
  before: Map<number, number> | null,
  after: Map<number, number> | null,
): number | null {
  if (!before || !after) return null;
  let total = 0;
  for (const [pid, seconds] of after) total += seconds - (before.get(pid) ?? 0);
  return total;
}

/** A fresh copy of the seed's template for one run; `drop` removes it. */
export async function postgresCopy(seeded: SeededDatabase): Promise<PostgresCopy> {
  const template = await seedTemplate(seeded);
  const database = `hearth_bench_run_${process.pid}_${Date.now()}`;
  await withAdmin((client) =>
    client.query(`CREATE DATABASE ${ident(database)} TEMPLATE ${ident(template)}`),
  );
  const monitor = new pg.Client({ connectionString: adminUrl });
  await monitor.connect();
  return {
    databaseUrl: urlOf(database),
    backendCpu: async () => {
      const { rows } = await monitor.query<{ pid: number }>(
        'SELECT pid FROM pg_stat_activity WHERE datname = $1',
        [database],
      );
      const used = new Map<number, number>();
      for (const { pid } of rows) {
        try {
          const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
          const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
          used.set(pid, (Number(fields[11]) + Number(fields[12])) / clockTicksPerSecond);
        } catch {
          return null;
        }
      }
      return used;
    },
    drop: async () => {
      await monitor.end();
      await withAdmin((client) =>
        client.query(`DROP DATABASE IF EXISTS ${ident(database)} WITH (FORCE)`),
      );
    },
  };
}
