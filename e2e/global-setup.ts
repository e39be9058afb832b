import { existsSync } from 'node:fs';
import { copyFile, cp, mkdir, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { FullConfig } from '@playwright/test';
import { envNames, requiredEnv } from './support/env.js';
import { startMailSink, type MailSink } from './support/mail-sink.js';
import { repoRoot, serverEnv, startServer, type RunningServer } from './support/server.js';

/** What globalTeardown must undo; kept on globalThis because both run in the runner process. */
export interface E2eRun {
  tmpDir: string;
  logPath: string;
  outputDir: string;
  server: RunningServer | null;
  sink: MailSink | null;
}

const runKey = Symbol.for('hearth.e2e.run');

/** The run started by globalSetup, if any. */
export function currentRun(): E2eRun | undefined {
  return (globalThis as Record<symbol, E2eRun | undefined>)[runKey];
}

function setCurrentRun(run: E2eRun | undefined): void {
  (globalThis as Record<symbol, E2eRun | undefined>)[runKey] = run;
}

/** Stops what this run started (the server by its own PID, the in-process sink) and removes the temp dir. */
export async function stopRun(run: E2eRun): Promise<void> {
  await run.server?.stop();
  await run.sink?.close();
  try {
    await mkdir(run.outputDir, { recursive: true });
    await copyFile(run.logPath, join(run.outputDir, 'server.log'));
  } catch {
    // no log to keep
  }
  await rm(run.tmpDir, { recursive: true, force: true });
  setCurrentRun(undefined);
}

/** Starts the SMTP sink, then the server on the port the config chose, and tells the workers where they are. */
export default async function globalSetup(config: FullConfig): Promise<void> {
  if (!existsSync(join(repoRoot, 'dist/web/index.html'))) {
    throw new Error(
      'dist/web/index.html is missing: run `npm run build:web` first (npm run test:e2e does it).',
    );
  }
  const baseUrl = new URL(requiredEnv(envNames.baseUrl));
  const tmpDir = await mkdtemp(join(tmpdir(), 'hearth-e2e-'));
  const run: E2eRun = {
    tmpDir,
    logPath: join(tmpDir, 'server.log'),
    outputDir: config.projects[0]?.outputDir ?? join(repoRoot, 'test-results'),
    server: null,
    sink: null,
  };
  setCurrentRun(run);
  try {
    const mailDir = join(tmpDir, 'mail');
    const dataDir = join(tmpDir, 'data');
    const webDir = join(tmpDir, 'web');
    await mkdir(dataDir, { recursive: true });
    await cp(join(repoRoot, 'dist/web'), webDir, { recursive: true });
    run.sink = await startMailSink(mailDir);
    const env = serverEnv({
      port: Number(baseUrl.port),
      dataDir,
      smtpPort: run.sink.port,
      databaseUrl: process.env.DATABASE_URL,
      webDir,
    });
    run.server = await startServer(env, run.logPath);
    // Workers inherit the runner's environment as it is after globalSetup.
    process.env[envNames.mailDir] = mailDir;
    process.env[envNames.serverEnv] = JSON.stringify(env);
  } catch (error) {
    await stopRun(run);
    throw error;
  }
}
