/**
 * Runs the built Hearth server (dist/server/main.js, as `npm start` does) as a child process on a free port
 * of 127.0.0.1. The build is brought up to date once per process, so every server of one benchmark run is
 * the same build even while the sources change.
 */
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { randomBytes } from 'node:crypto';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { freePort } from '../src/server/test/ports.js';

export const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

const startTimeoutMs = 60_000;
const stopTimeoutMs = 15_000;

export interface RunningServer {
  url: string;
  /** The Origin browsers send; state-changing requests need it. */
  origin: string;
  pid: number;
  stop(): Promise<void>;
}

/** Builds dist/ when it is missing or older than the sources (the same check as `npm start`). */
async function buildIfStale(): Promise<void> {
  const stateModule = pathToFileURL(path.join(repoRoot, 'scripts', 'build-state.mjs')).href;
  const state = (await import(stateModule)) as { buildIsStale(): boolean };
  if (!state.buildIsStale()) return;
  console.log('Building Hearth (dist/ is missing or older than the sources)…');
  const result = spawnSync(process.execPath, [path.join(repoRoot, 'scripts', 'build.mjs')], {
    cwd: repoRoot,
    encoding: 'utf8',
  });
  if (result.status !== 0) {
    throw new Error(`the build failed:\n${result.stdout}${result.stderr}`);
  }
}

let built: Promise<void> | undefined;

async function waitForHealth(url: string, child: ChildProcess): Promise<void> {
  const deadline = Date.now() + startTimeoutMs;
  while (Date.now() < deadline) {
    if (child.exitCode !== null) throw new Error(`the server exited with code ${child.exitCode}`);
    try {
      const response = await fetch(`${url}/api/health`);
      if (response.ok) return;
    } catch {
      // Not listening yet.
    }
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  throw new Error(`the server did not answer /api/health within ${startTimeoutMs / 1000} s`);
}

/**
 * The server's Node.js flags from the environment: BENCH_NODE_ARGS (space-separated), then a CPU profile
 * into BENCH_CPU_PROF's folder when it is set.
 */
export function serverNodeArgs(): string[] {
  const profileDir = process.env.BENCH_CPU_PROF;
  return [
    ...(process.env.BENCH_NODE_ARGS?.split(' ').filter(Boolean) ?? []),
    ...(profileDir ? ['--cpu-prof', `--cpu-prof-dir=${profileDir}`] : []),
  ];
}

/**
 * Starts the production server on `dataDir` (SQLite) or `databaseUrl` with rate limits off, so the load
 * measures the application and not its 429 answers.
 */
export async function startServer(options: {
  dataDir: string;
  databaseUrl?: string;
  /** Extra Node.js flags for the server process (`--cpu-prof`, say). */
  nodeArgs?: string[];
  /** Extra environment (REDIS_URL, RATE_LIMITS=on, TRUST_PROXY…) over the defaults below. */
  env?: Record<string, string>;
  /** Receives the server's log output instead of this process's stdout. */
  onLog?: (chunk: string) => void;
}): Promise<RunningServer> {
  built ??= buildIfStale();
  await built;
  const port = await freePort();
  const url = `http://127.0.0.1:${port}`;
  // A clean environment: nothing from the caller's shell (DATABASE_URL, REDIS_URL…) leaks into the run.
  const env: Record<string, string> = {
    PATH: process.env.PATH ?? '',
    HOME: process.env.HOME ?? '',
    NODE_ENV: 'production',
    HOST: '127.0.0.1',
    PORT: String(port),
    PUBLIC_URL: url,
    DATA_DIR: options.dataDir,
    AUTH_SECRET: randomBytes(32).toString('base64url'),
    RATE_LIMITS: 'off',
    LOG_LEVEL: 'warn',
    ...(options.databaseUrl ? { DATABASE_URL: options.databaseUrl } : {}),
    ...options.env,
  };
  const args = [...(options.nodeArgs ?? []), path.join(repoRoot, 'dist', 'server', 'main.js')];
  const child = spawn(process.execPath, args, {
    cwd: repoRoot,
    env,
    stdio: ['ignore', options.onLog ? 'pipe' : 'inherit', 'inherit'],
  });
  if (options.onLog) child.stdout?.setEncoding('utf8').on('data', options.onLog);
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const stop = async () => {
    if (child.exitCode !== null || child.signalCode !== null) return;
    child.kill('SIGTERM');
    const timer = setTimeout(() => child.kill('SIGKILL'), stopTimeoutMs);
    await exited;
    clearTimeout(timer);
  };
  try {
    await waitForHealth(url, child);
  } catch (error) {
    await stop();
    throw error;
  }
  return { url, origin: url, pid: child.pid ?? 0, stop };
}

/** JSON request helper for setting up a run (sign-up, sign-in), with the Origin the server requires. */
export async function request(
  server: RunningServer,
  method: string,
  pathname: string,
  body?: unknown,
  cookie?: string,
): Promise<Response> {
  const headers: Record<string, string> = { origin: server.origin };
  if (body !== undefined) headers['content-type'] = 'application/json';
  if (cookie) headers.cookie = cookie;
  return fetch(`${server.url}${pathname}`, {
    method,
    headers,
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
}

/** The `name=value` pairs of a response's Set-Cookie headers, as a Cookie header. */
export function cookieHeader(response: Response): string {
  return response.headers
    .getSetCookie()
    .map((cookie) => cookie.split(';')[0] ?? '')
    .filter((pair) => pair.length > 0)
    .join('; ');
}

/** Signs each account in through the API; the session cookies, in the accounts' order. */
export async function signIn(
  server: RunningServer,
  accounts: readonly { email: string; password: string }[],
): Promise<string[]> {
  const cookies: string[] = [];
  for (const account of accounts) {
    const response = await request(server, 'POST', '/api/auth/sign-in', {
      identifier: account.email,
      password: account.password,
    });
    if (response.status !== 200) throw new Error(`sign-in failed: ${response.status}`);
    cookies.push(cookieHeader(response));
  }
  return cookies;
}

/** USER_HZ: the unit of the CPU times in /proc/<pid>/stat, 100 on every Linux platform Node supports. */
const clockTicksPerSecond = 100;

/**
 * CPU seconds the process has used (user + system), from /proc on Linux; null elsewhere. Divided by the
 * requests served, it is the server's cost per request, which other work on the machine barely skews.
 */
export function cpuSeconds(pid: number): number | null {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    // Fields after the parenthesised command name; utime and stime are the 14th and 15th fields.
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return (Number(fields[11]) + Number(fields[12])) / clockTicksPerSecond;
  } catch {
    return null;
  }
}
