import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync } from 'node:fs';
import net from 'node:net';
import { freePort } from './ports.js';

/** Debian's Redis server, which outage tests start and stop themselves. */
export const redisServerBinary = '/usr/bin/redis-server';

/** Resolves once something accepts TCP connections on `port`, or rejects after `ms`. */
async function waitForPort(port: number, ms: number): Promise<void> {
  const deadline = Date.now() + ms;
  for (;;) {
    const open = await new Promise<boolean>((resolve) => {
      const socket = net.connect(port, '127.0.0.1');
      socket.once('connect', () => {
        socket.destroy();
        resolve(true);
      });
      socket.once('error', () => resolve(false));
    });
    if (open) return;
    if (Date.now() > deadline) throw new Error(`nothing listens on port ${port}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

/** A Redis server owned by one test: stopped and started again on the same port, without persistence. */
export class OwnRedisServer {
  #process: ChildProcess | undefined;

  private constructor(readonly port: number) {}

  /** Whether the Redis server binary is installed. */
  static available(): boolean {
    return existsSync(redisServerBinary);
  }

  /** A server on a free port, not yet started. */
  static async onFreePort(): Promise<OwnRedisServer> {
    return new OwnRedisServer(await freePort());
  }

  get url(): string {
    return `redis://127.0.0.1:${this.port}`;
  }

  /** The PID of the running server. */
  get pid(): number | undefined {
    return this.#process?.pid;
  }

  async start(): Promise<void> {
    const child = spawn(
      redisServerBinary,
      ['--port', String(this.port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no'],
      { stdio: 'ignore' },
    );
    this.#process = child;
    await waitForPort(this.port, 10_000);
  }

  /** Kills the server by its PID (as a crash would) and waits until it is gone. */
  async kill(): Promise<void> {
    const child = this.#process;
    this.#process = undefined;
    if (!child?.pid || child.exitCode !== null) return;
    const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
    process.kill(child.pid, 'SIGKILL');
    await exited;
  }
}
