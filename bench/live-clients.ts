/**
 * A worker thread of the live delivery benchmark (live.ts): it holds a share of the WebSocket clients, so
 * reading thousands of frames per event never queues behind one thread and the clients are not what the
 * benchmark measures. Each arrival is stamped with the wall clock in milliseconds (time origin plus the
 * monotonic clock), which every thread of the process shares.
 *
 * Sockets open from many loopback addresses (127.1.x.y, a few dozen each): the server caps the sockets of
 * one address, as it should in production, and the benchmark stands for many households, not one.
 */
import { parentPort, workerData } from 'node:worker_threads';
import WebSocket from 'ws';

export interface WorkerSetup {
  /** ws://127.0.0.1:<port>/api/realtime */
  url: string;
  origin: string;
  topics: string[];
  /** Sockets per source address, below the server's per-address cap. */
  perAddress: number;
}

export type WorkerCommand =
  | { type: 'open'; count: number; firstIndex: number }
  /** Forget earlier arrivals of `topic` whose first bytes contain `marker`, and start watching. */
  | { type: 'arm'; topic: string; marker: string }
  | { type: 'collect'; timeoutMs: number }
  | { type: 'close' };

export type WorkerReply =
  | { type: 'opened'; failures: number; firstError: string | null }
  | { type: 'armed' }
  /** Arrival times (wall clock ms) per socket of this worker; NaN where none came in time. */
  | { type: 'arrivals'; times: number[] }
  | { type: 'closed' };

/** The bytes of a frame read to tell its topic; `{"type":"doc","topic":"…","data":{…` comes first. */
const peekBytes = 160;
/** Sockets opening at once per worker: the server reads two snapshots for each. */
const openConcurrency = 100;
const openTimeoutMs = 30_000;

const now = () => performance.timeOrigin + performance.now();

interface Client {
  socket: WebSocket;
  /** When the watched frame arrived since the last arm, or NaN. */
  arrived: number;
}

const setup = workerData as WorkerSetup;
const clients: Client[] = [];
let watched: { prefix: string; marker: string } | null = null;

function sourceAddress(index: number): string {
  const address = Math.floor(index / setup.perAddress);
  return `127.1.${Math.floor(address / 200)}.${1 + (address % 200)}`;
}

/** Opens one socket, subscribes to every topic and resolves once each topic's snapshot arrived. */
function open(index: number): Promise<void> {
  return new Promise<void>((resolve, reject) => {
    const socket = new WebSocket(setup.url, {
      headers: { origin: setup.origin },
      localAddress: sourceAddress(index),
      perMessageDeflate: false,
    });
    const client: Client = { socket, arrived: Number.NaN };
    let snapshots = 0;
    const timer = setTimeout(() => {
      socket.terminate();
      reject(new Error('no snapshots within the time allowed'));
    }, openTimeoutMs);
    socket.once('unexpected-response', (_request, response) => {
      clearTimeout(timer);
      reject(new Error(`upgrade refused with ${response.statusCode ?? 'no status'}`));
    });
    socket.once('error', (error) => {
      clearTimeout(timer);
      reject(error);
    });
    socket.once('open', () => {
      for (const topic of setup.topics) socket.send(JSON.stringify({ type: 'subscribe', topic }));
    });
    socket.on('message', (data: Buffer) => {
      if (snapshots < setup.topics.length) {
        snapshots += 1;
        if (snapshots === setup.topics.length) {
          clearTimeout(timer);
          clients.push(client);
          resolve();
        }
        return;
      }
      if (!watched || !Number.isNaN(client.arrived)) return;
      const head = data.toString('utf8', 0, Math.min(peekBytes, data.length));
      if (head.startsWith(watched.prefix) && head.includes(watched.marker)) client.arrived = now();
    });
  });
}

async function openMany(count: number, firstIndex: number): Promise<WorkerReply> {
  let failures = 0;
  let firstError: string | null = null;
  let next = 0;
  const lane = async () => {
    while (next < count) {
      const index = firstIndex + next;
      next += 1;
      try {
        await open(index);
      } catch (error) {
        failures += 1;
        firstError ??= error instanceof Error ? error.message : String(error);
      }
    }
  };
  await Promise.all(Array.from({ length: Math.min(openConcurrency, count) }, lane));
  return { type: 'opened', failures, firstError };
}

async function collect(timeoutMs: number): Promise<WorkerReply> {
  const deadline = now() + timeoutMs;
  while (now() < deadline && clients.some((client) => Number.isNaN(client.arrived))) {
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
  watched = null;
  return { type: 'arrivals', times: clients.map((client) => client.arrived) };
}

async function close(): Promise<WorkerReply> {
  await Promise.all(
    clients.splice(0).map(
      ({ socket }) =>
        new Promise<void>((resolve) => {
          if (socket.readyState === WebSocket.CLOSED) resolve();
          else {
            socket.once('close', () => resolve());
            socket.close();
          }
        }),
    ),
  );
  return { type: 'closed' };
}

parentPort?.on('message', (command: WorkerCommand) => {
  const reply = (message: WorkerReply | Promise<WorkerReply>) =>
    void Promise.resolve(message).then((settled) => parentPort?.postMessage(settled));
  switch (command.type) {
    case 'open':
      reply(openMany(command.count, command.firstIndex));
      return;
    case 'arm':
      for (const client of clients) client.arrived = Number.NaN;
      watched = {
        prefix: `{"type":"doc","topic":${JSON.stringify(command.topic)}`,
        marker: command.marker,
      };
      reply({ type: 'armed' });
      return;
    case 'collect':
      reply(collect(command.timeoutMs));
      return;
    case 'close':
      reply(close());
      return;
  }
});
