/**
 * The yardstick of `npm run bench` (issue 13 §3): a bare Fastify server with one route answering
 * `{"ok":true}`, run as its own process so its CPU time is read the same way as Hearth's. Hearth's req/s
 * is shown as a ratio to this server's, measured in the same run, because on a shared machine the ratio
 * moves far less than either figure.
 *
 *   node --import tsx bench/hello.ts <port>     # listens on 127.0.0.1:<port>, prints "listening"
 */
import { spawn } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import fastify from 'fastify';
import { freePort } from '../src/server/test/ports.js';

const startTimeoutMs = 30_000;

export interface HelloServer {
  url: string;
  pid: number;
  stop(): Promise<void>;
}

/** Starts the hello server as a child process on a free port and waits until it listens. */
export async function startHello(): Promise<HelloServer> {
  const port = await freePort();
  const file = fileURLToPath(import.meta.url);
  const child = spawn(process.execPath, ['--import', 'tsx', file, String(port)], {
    cwd: path.dirname(file),
    env: { PATH: process.env.PATH ?? '', NODE_ENV: 'production' },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  await new Promise<void>((resolve, reject) => {
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`the hello server did not start within ${startTimeoutMs / 1000} s`));
    }, startTimeoutMs);
    child.stdout.setEncoding('utf8').on('data', (chunk: string) => {
      if (!chunk.includes('listening')) return;
      clearTimeout(timer);
      resolve();
    });
    child.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`the hello server exited with code ${String(code)}`));
    });
  });
  return {
    url: `http://127.0.0.1:${port}`,
    pid: child.pid ?? 0,
    stop: async () => {
      if (child.exitCode !== null || child.signalCode !== null) return;
      child.kill('SIGTERM');
      await exited;
    },
  };
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  const port = Number(process.argv[2]);
  if (!Number.isInteger(port) || port <= 0) throw new Error('usage: hello.ts <port>');
  const app = fastify({ logger: false });
  app.get('/', () => ({ ok: true }));
  await app.listen({ host: '127.0.0.1', port });
  process.on('SIGTERM', () => {
    void app.close().then(() => process.exit(0));
  });
  process.stdout.write('listening\n');
}
