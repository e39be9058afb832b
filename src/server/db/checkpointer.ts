import { createRequire } from 'node:module';
import { Worker } from 'node:worker_threads';

/** How often the checkpointer copies the write-ahead log into the database file. */
export const checkpointIntervalMs = 500;

/**
 * Pages of write-ahead log past which the server's own connection checkpoints after all, on the event
 * loop: a backstop should the checkpointer fall behind or stop. Far above what it leaves between two runs.
 */
export const backstopCheckpointPages = 20_000;

/** A checkpointer running on its own thread. */
export interface Checkpointer {
  /** Resolves after the next checkpoint, with the frames of log it found and how many it copied. */
  next(): Promise<{ log: number; checkpointed: number }>;
  stop(): Promise<void>;
}

/**
 * The worker's code, evaluated as CommonJS: a second connection to the database that runs passive
 * checkpoints (they never wait for, nor block, the server's readers and writers).
 */
const workerSource = `
const { parentPort, workerData } = require('node:worker_threads');
const Database = require(workerData.driver);
const db = new Database(workerData.file);
db.pragma('synchronous = ' + workerData.synchronous);
const timer = setInterval(() => {
  try {
    const [result] = db.pragma('wal_checkpoint(PASSIVE)');
    parentPort.postMessage({ log: result.log, checkpointed: result.checkpointed });
  } catch (error) {
    parentPort.postMessage({ error: String(error) });
  }
}, workerData.intervalMs);
parentPort.on('message', () => {
  clearInterval(timer);
  db.close();
  parentPort.close();
});
`;

/**
 * Moves SQLite's checkpoints off the event loop (ADR 0029). In WAL mode a checkpoint copies the log into
 * the database file and flushes both to the disk: run by the server's connection (SQLite's default, every
 * 1,000 pages) it holds every request for as long as that takes. Run here, on a worker thread with its
 * own connection, the server's commits never wait for the disk. A failed checkpoint is reported to
 * `onError` and retried at the next interval.
 */
export function startCheckpointer(
  file: string,
  options: { synchronous: 'normal' | 'full'; onError(message: string): void },
): Checkpointer {
  const worker = new Worker(workerSource, {
    eval: true,
    workerData: {
      driver: createRequire(import.meta.url).resolve('better-sqlite3'),
      file,
      synchronous: options.synchronous.toUpperCase(),
      intervalMs: checkpointIntervalMs,
    },
  });
  // Never what keeps the process alive; a server that exits takes it along.
  worker.unref();
  const waiting: ((result: { log: number; checkpointed: number }) => void)[] = [];
  worker.on('message', (message: { log: number; checkpointed: number } | { error: string }) => {
    if ('error' in message) {
      options.onError(message.error);
      return;
    }
    for (const resolve of waiting.splice(0)) resolve(message);
  });
  worker.on('error', (error) => options.onError(String(error)));
  const exited = new Promise<void>((resolve) => worker.once('exit', () => resolve()));
  return {
    next: () => new Promise((resolve) => waiting.push(resolve)),
    async stop() {
      worker.postMessage('stop');
      await exited;
    },
  };
}
