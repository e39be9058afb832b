/**
 * The database a benchmark server runs on: a fresh copy of a seeded one, on SQLite by default or on
 * PostgreSQL with `--postgres` or BENCH_DATABASE=postgres (postgres.ts), so the writes of one run never
 * leak into the next.
 */
import { cpSync, mkdtempSync, rmSync } from 'node:fs';
import { cpus, loadavg, tmpdir } from 'node:os';
import path from 'node:path';
import { postgresCopy } from './postgres.js';
import type { SeededDatabase } from './seed.js';

export const onPostgres =
  process.argv.includes('--postgres') || process.env.BENCH_DATABASE === 'postgres';

export const databaseName = onPostgres ? 'PostgreSQL' : 'SQLite';

/** CPU seconds of the PostgreSQL backends by pid (postgres.ts), when the run is on PostgreSQL. */
export type BackendCpu = () => Promise<Map<number, number> | null>;

/** A copy of a seeded database for one server: the writes of one run never leak into the next. */
export interface DatabaseCopy {
  dataDir: string;
  databaseUrl?: string;
  backendCpu?: BackendCpu;
  dispose(): Promise<void>;
}

/** A fresh copy of `seeded` on the database this run measures (SQLite by default, or PostgreSQL). */
export async function copyOf(seeded: SeededDatabase): Promise<DatabaseCopy> {
  const runDir = mkdtempSync(path.join(tmpdir(), `hearth-bench-${seeded.plan.name}-`));
  const removeDir = () => rmSync(runDir, { recursive: true, force: true });
  if (!onPostgres) {
    cpSync(seeded.dataDir, runDir, { recursive: true });
    return {
      dataDir: runDir,
      dispose: () => {
        removeDir();
        return Promise.resolve();
      },
    };
  }
  try {
    const copy = await postgresCopy(seeded);
    return {
      dataDir: runDir,
      databaseUrl: copy.databaseUrl,
      backendCpu: () => copy.backendCpu(),
      dispose: async () => {
        removeDir();
        await copy.drop();
      },
    };
  } catch (error) {
    removeDir();
    throw error;
  }
}

/** The machine's load average over 1, 5 and 15 minutes and its CPU count, for the log of a block. */
export function loadLine(when: string): string {
  const [one = 0, five = 0, fifteen = 0] = loadavg();
  return (
    `  load average ${when}: ${one.toFixed(2)}, ${five.toFixed(2)}, ${fifteen.toFixed(2)} ` +
    `(1, 5, 15 min) on ${cpus().length} CPUs`
  );
}
