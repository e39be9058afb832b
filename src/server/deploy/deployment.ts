/**
 * A deployment as an operator runs one, for tests: built server instances as child processes, nginx in
 * front of them, and an S3-compatible store. Everything started here is tracked by PID and stopped by it.
 */
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { chmodSync, existsSync, mkdirSync, readdirSync, statSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import S3rver from 's3rver';

export const repositoryRoot = path.resolve(import.meta.dirname, '../../..');
const serverEntry = path.join(repositoryRoot, 'dist', 'server', 'main.js');

/** What `npm run build:server` compiles (tsconfig.server.json), and the folders it leaves out. */
const buildInputs = ['src/server', 'src/shared', 'tsconfig.server.json', 'tsconfig.base.json'];
const notBuilt = new Set(
  ['src/server/test', 'src/server/deploy'].map((folder) => path.join(repositoryRoot, folder)),
);

/** Processes still running; killed outright if the test process exits without stopping them. */
const running = new Set<ChildProcess>();
process.once('exit', () => {
  for (const child of running) child.kill('SIGKILL');
});

/** The nginx binary: on the PATH, or where Debian puts it (often outside a non-root PATH). */
export function findNginx(): string | undefined {
  const directories = [...(process.env.PATH ?? '').split(path.delimiter), '/usr/sbin', '/sbin'];
  return directories
    .filter((directory) => directory !== '')
    .map((directory) => path.join(directory, 'nginx'))
    .find((candidate) => existsSync(candidate));
}

/** Newest modification time under `entry`, leaving out what the server build does not compile. */
function newestMtime(entry: string): number {
  if (notBuilt.has(entry) || entry.endsWith('.test.ts')) return 0;
  const info = statSync(entry);
  if (!info.isDirectory()) return info.mtimeMs;
  let newest = info.mtimeMs;
  for (const name of readdirSync(entry)) {
    newest = Math.max(newest, newestMtime(path.join(entry, name)));
  }
  return newest;
}

/** True when dist/server/main.js is missing or older than a source it is compiled from. */
export function serverBuildIsStale(): boolean {
  if (!existsSync(serverEntry)) return true;
  const built = statSync(serverEntry).mtimeMs;
  return buildInputs
    .map((input) => path.join(repositoryRoot, input))
    .filter((input) => existsSync(input))
    .some((input) => newestMtime(input) > built);
}

/** Runs `npm run build:server` when the server build is missing or stale; throws with tsc's output if it fails. */
export function ensureServerBuild(): void {
  if (!serverBuildIsStale()) return;
  const result = spawnSync('npm', ['run', 'build:server'], {
    cwd: repositoryRoot,
    encoding: 'utf8',
    timeout: 180_000,
  });
  if (result.status !== 0) {
    const output = `${result.stdout}\n${result.stderr}`.trim().slice(-4_000);
    throw new Error(`npm run build:server failed (${String(result.status)}):\n${output}`);
  }
}

/** The last bytes a child wrote, for error messages: enough to see why it died, bounded in size. */
class OutputTail {
  #text = '';
  constructor(child: ChildProcess) {
    const keep = (chunk: Buffer) => {
      this.#text = (this.#text + chunk.toString('utf8')).slice(-16_000);
    };
    child.stdout?.on('data', keep);
    child.stderr?.on('data', keep);
  }
  toString(): string {
    return this.#text;
  }
}

/** A child process tracked by PID, with its output tail and its exit. */
export class Supervised {
  readonly pid: number;
  readonly output: OutputTail;
  readonly exited: Promise<void>;

  constructor(
    readonly name: string,
    private readonly child: ChildProcess,
  ) {
    if (child.pid === undefined) throw new Error(`${name} did not start`);
    this.pid = child.pid;
    this.output = new OutputTail(child);
    running.add(child);
    this.exited = new Promise<void>((resolve) => {
      child.once('exit', () => {
        running.delete(child);
        resolve();
      });
    });
  }

  get alive(): boolean {
    return this.child.exitCode === null && this.child.signalCode === null;
  }

  /** Sends `signal` to this process, by its PID. */
  signal(signal: NodeJS.Signals): void {
    if (this.alive) process.kill(this.pid, signal);
  }

  /** Asks the process to stop, and kills it if it has not exited within `graceMs`. */
  async stop(graceMs: number, signal: NodeJS.Signals = 'SIGTERM'): Promise<void> {
    if (!this.alive) return;
    this.signal(signal);
    let timer: NodeJS.Timeout | undefined;
    const gaveUp = new Promise<boolean>((resolve) => {
      timer = setTimeout(() => resolve(true), graceMs);
    });
    const late = await Promise.race([this.exited.then(() => false), gaveUp]);
    clearTimeout(timer);
    if (late) {
      this.signal('SIGKILL');
      await this.exited;
    }
  }
}

/** Polls `url` until it answers 200, failing early when `process` exits. */
async function waitUntilServing(url: string, process: Supervised, timeoutMs: number) {
  const deadline = Date.now() + timeoutMs;
  let last = 'no answer yet';
  while (Date.now() < deadline) {
    if (!process.alive) {
      throw new Error(`${process.name} exited while starting:\n${process.output.toString()}`);
    }
    try {
      const response = await fetch(url, { signal: AbortSignal.timeout(2_000) });
      if (response.status === 200) return;
      last = `status ${String(response.status)}`;
    } catch (error) {
      last = String(error);
    }
    await new Promise((resolve) => setTimeout(resolve, 150));
  }
  throw new Error(
    `${process.name} did not answer ${url} within ${String(timeoutMs)} ms (${last}):\n${process.output.toString()}`,
  );
}

export interface Instance extends Supervised {
  port: number;
  baseUrl: string;
}

/** Starts one built server (`node dist/server/main.js`) on `port` with `env`, and waits until it is ready. */
export async function startInstance(
  name: string,
  port: number,
  env: Record<string, string>,
): Promise<Instance> {
  const child = spawn(process.execPath, [serverEntry], {
    cwd: repositoryRoot,
    env: { PATH: process.env.PATH ?? '', ...env, PORT: String(port), HOST: '127.0.0.1' },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const instance = Object.assign(new Supervised(name, child), {
    port,
    baseUrl: `http://127.0.0.1:${String(port)}`,
  });
  try {
    // /api/ready checks the database too: the instance has migrated and can serve.
    await waitUntilServing(`${instance.baseUrl}/api/ready`, instance, 60_000);
  } catch (error) {
    await instance.stop(12_000);
    throw error;
  }
  return instance;
}

/**
 * An nginx configuration as a small deployment would have it: round robin over the instances, the client
 * address appended to X-Forwarded-For, WebSocket upgrades passed through, a dead instance skipped.
 * `X-Upstream` tells tests which instance answered.
 */
export function nginxConfig(directory: string, port: number, upstreamPorts: number[]): string {
  const temp = (name: string) => path.join(directory, name);
  return `worker_processes 1;
error_log ${temp('error.log')} warn;
events { worker_connections 512; }
http {
  access_log ${temp('access.log')};
  client_body_temp_path ${temp('client_body')};
  proxy_temp_path ${temp('proxy')};
  fastcgi_temp_path ${temp('fastcgi')};
  uwsgi_temp_path ${temp('uwsgi')};
  scgi_temp_path ${temp('scgi')};
  client_max_body_size 25m;
  map $http_upgrade $connection_upgrade {
    default upgrade;
    '' close;
  }
  upstream hearth {
${upstreamPorts.map((upstream) => `    server 127.0.0.1:${String(upstream)} max_fails=1 fail_timeout=30s;`).join('\n')}
  }
  server {
    listen 127.0.0.1:${String(port)};
    location / {
      proxy_pass http://hearth;
      proxy_http_version 1.1;
      proxy_set_header Host $http_host;
      proxy_set_header X-Forwarded-For $proxy_add_x_forwarded_for;
      proxy_set_header X-Forwarded-Proto $scheme;
      proxy_set_header Upgrade $http_upgrade;
      proxy_set_header Connection $connection_upgrade;
      proxy_next_upstream error timeout;
      proxy_connect_timeout 2s;
      proxy_read_timeout 120s;
      add_header X-Upstream $upstream_addr always;
    }
  }
}
`;
}

export interface Proxy extends Supervised {
  port: number;
  baseUrl: string;
}

/** Starts nginx on `port` from `directory` (its own config, logs and temp files there) in front of `upstreamPorts`. */
export async function startNginx(
  binary: string,
  directory: string,
  upstreamPorts: number[],
  port: number,
): Promise<Proxy> {
  mkdirSync(directory, { recursive: true });
  const configFile = path.join(directory, 'nginx.conf');
  writeFileSync(configFile, nginxConfig(directory, port, upstreamPorts));
  // Workers drop root privileges; they must still reach their temp folders.
  chmodSync(directory, 0o755);
  const child = spawn(
    binary,
    [
      '-p',
      directory,
      '-c',
      configFile,
      '-e',
      path.join(directory, 'error.log'),
      '-g',
      `daemon off; pid ${path.join(directory, 'nginx.pid')};`,
    ],
    { stdio: ['ignore', 'pipe', 'pipe'] },
  );
  const proxy = Object.assign(new Supervised('nginx', child), {
    port,
    baseUrl: `http://127.0.0.1:${String(port)}`,
  });
  try {
    await waitUntilServing(`${proxy.baseUrl}/api/health`, proxy, 20_000);
  } catch (error) {
    await proxy.stop(5_000);
    throw error;
  }
  return proxy;
}

export interface ObjectStore {
  endpoint: string;
  bucket: string;
  close(): Promise<void>;
}

/** An S3-compatible server on a free port, keeping objects in `directory`, with one bucket. */
export async function startObjectStore(directory: string, bucket: string): Promise<ObjectStore> {
  const server = new S3rver({
    address: '127.0.0.1',
    port: 0,
    directory,
    silent: true,
    configureBuckets: [{ name: bucket, configs: [] }],
  });
  const { port } = await server.run();
  return {
    endpoint: `http://127.0.0.1:${String(port)}`,
    bucket,
    close: () => server.close(),
  };
}

export interface HttpOptions {
  cookie?: string;
  origin?: string;
  headers?: Record<string, string>;
  json?: unknown;
  form?: FormData;
}

export interface HttpResponse {
  status: number;
  headers: Headers;
  text: string;
  /** `name=value` pairs of Set-Cookie, as a Cookie header. */
  cookie: string;
  /** The body parsed as JSON, for a schema to check. */
  json(): unknown;
}

/** One HTTP request over the network, the way a browser on the instance sends it (Origin, cookie). */
export async function http(
  baseUrl: string,
  method: 'GET' | 'POST' | 'PATCH' | 'DELETE',
  url: string,
  options: HttpOptions = {},
): Promise<HttpResponse> {
  const headers: Record<string, string> = { ...options.headers };
  if (options.origin) headers.origin = options.origin;
  if (options.cookie) headers.cookie = options.cookie;
  let body: string | FormData | undefined;
  if (options.json !== undefined) {
    headers['content-type'] = 'application/json';
    body = JSON.stringify(options.json);
  } else if (options.form) {
    body = options.form;
  }
  const response = await fetch(`${baseUrl}${url}`, {
    method,
    headers,
    body,
    signal: AbortSignal.timeout(30_000),
  });
  const text = await response.text();
  return {
    status: response.status,
    headers: response.headers,
    text,
    cookie: response.headers
      .getSetCookie()
      .map((line) => line.split(';')[0] ?? '')
      .filter((pair) => pair !== '')
      .join('; '),
    json: (): unknown => JSON.parse(text),
  };
}
