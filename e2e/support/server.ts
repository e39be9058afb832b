import { spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { openSync, closeSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { instance } from './env.js';

/** What the server under test needs to be started with (the brief's "How the app is run"). */
export interface ServerSettings {
  port: number;
  dataDir: string;
  smtpPort: number;
  databaseUrl: string | undefined;
  /** A private copy of dist/web, so a rebuild during the run cannot pull files from under the browser. */
  webDir: string;
}

/** Repository root: the e2e folder's parent. Specs and the CLI run from there. */
export const repoRoot = fileURLToPath(new URL('../../', import.meta.url));

/** The server's environment: the runner's (PATH, HOME) plus the instance settings, never a stray DATABASE_URL. */
export function serverEnv(settings: ServerSettings): Record<string, string> {
  const base: Record<string, string> = {};
  for (const [key, value] of Object.entries(process.env)) {
    if (value !== undefined && !key.startsWith('HEARTH_E2E_')) base[key] = value;
  }
  delete base.DATABASE_URL;
  delete base.REDIS_URL;
  const env: Record<string, string> = {
    ...base,
    PORT: String(settings.port),
    HOST: '127.0.0.1',
    DATA_DIR: settings.dataDir,
    WEB_DIR: settings.webDir,
    PUBLIC_URL: `http://127.0.0.1:${String(settings.port)}`,
    SMTP_URL: `smtp://127.0.0.1:${String(settings.smtpPort)}`,
    MAIL_FROM: instance.mailFrom,
    CONTACT_EMAIL: instance.contactEmail,
    INSTANCE_NAME: instance.name,
    // Each test sends its own X-Forwarded-For so per-IP rate limits never spill from one test into another.
    TRUST_PROXY: 'true',
    NODE_ENV: 'production',
    // Required in production (src/server/config.ts); a fresh one per run.
    AUTH_SECRET: randomBytes(32).toString('base64url'),
    LOG_LEVEL: 'warn',
    // Every page load reports its performance, so the dashboard's table fills deterministically.
    WEB_VITALS_SAMPLE_RATE: '1',
  };
  if (settings.databaseUrl) env.DATABASE_URL = settings.databaseUrl;
  return env;
}

/** A server process this run started; only it is ever signalled. */
export interface RunningServer {
  pid: number;
  stop: () => Promise<void>;
}

function tail(path: string, lines = 60): string {
  try {
    return readFileSync(path, 'utf8').split('\n').slice(-lines).join('\n');
  } catch {
    return '(no server log)';
  }
}

function exited(child: ChildProcess): Promise<void> {
  return new Promise((resolve) => {
    if (child.exitCode !== null || child.signalCode !== null) {
      resolve();
      return;
    }
    child.once('exit', () => {
      resolve();
    });
  });
}

/** Starts `node --import tsx src/server/main.ts` (so the PID is the server's own) and waits for /api/health. */
export async function startServer(
  env: Record<string, string>,
  logPath: string,
  timeoutMs = 90_000,
): Promise<RunningServer> {
  const log = openSync(logPath, 'a');
  const child = spawn(process.execPath, ['--import', 'tsx', 'src/server/main.ts'], {
    cwd: repoRoot,
    env,
    stdio: ['ignore', log, log],
  });
  closeSync(log);
  const { pid } = child;
  if (pid === undefined) throw new Error('The server process could not be spawned.');

  const stop = async (): Promise<void> => {
    if (child.exitCode !== null || child.signalCode !== null) return;
    child.kill('SIGTERM');
    const timer = setTimeout(() => {
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
    }, 10_000);
    await exited(child);
    clearTimeout(timer);
  };

  const url = `${env.PUBLIC_URL ?? ''}/api/health`;
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    if (child.exitCode !== null || child.signalCode !== null) {
      throw new Error(
        `The server exited (${String(child.exitCode ?? child.signalCode)}) before it was healthy. Log:\n${tail(logPath)}`,
      );
    }
    try {
      const response = await fetch(url, { signal: AbortSignal.timeout(2_000) });
      if (response.status === 200) return { pid, stop };
    } catch {
      // not listening yet
    }
    if (Date.now() > deadline) {
      await stop();
      throw new Error(
        `The server was not healthy at ${url} within ${String(timeoutMs)} ms. Log:\n${tail(logPath)}`,
      );
    }
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
}
