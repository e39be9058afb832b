import { chmodSync, existsSync, unlinkSync } from 'node:fs';
import net from 'node:net';
import path from 'node:path';
import type { Logger } from 'pino';
import { privateModes } from '../private-files.js';
import {
  LocalEventBus,
  readBusMessage,
  type BusMessage,
  type ChangedTopic,
  type DocumentEvent,
  type EndedSessions,
  type EventBus,
} from './bus.js';

/** Unix socket in DATA_DIR through which operator commands reach a running single-instance server. */
export function controlSocketPath(dataDir: string): string {
  return path.join(dataDir, 'hearth.sock');
}

const maxLineBytes = 1024 * 1024;

/**
 * The in-process bus of a server without Redis also listens on a socket in DATA_DIR, so an operator
 * command run in another process (`npm run cli`) can publish into it and open browsers see the change.
 */
export async function listenForLocalEvents(
  bus: LocalEventBus,
  dataDir: string,
  log: Logger,
): Promise<() => Promise<void>> {
  const file = controlSocketPath(dataDir);
  if (existsSync(file)) {
    // A socket left by a crashed server; if another live server owns it, connecting succeeds and we keep out.
    const alive = await new Promise<boolean>((resolve) => {
      const probe = net.connect(file, () => {
        probe.end();
        resolve(true);
      });
      probe.on('error', () => resolve(false));
    });
    if (alive) {
      log.warn({ file }, 'another server owns the control socket; operator changes reach that one');
      return () => Promise.resolve();
    }
    unlinkSync(file);
  }
  const server = net.createServer((connection) => {
    let buffered = '';
    connection.setEncoding('utf8');
    connection.on('data', (chunk: string) => {
      buffered += chunk;
      if (buffered.length > maxLineBytes) {
        connection.destroy();
        return;
      }
      let newline = buffered.indexOf('\n');
      while (newline >= 0) {
        const line = buffered.slice(0, newline);
        buffered = buffered.slice(newline + 1);
        let message: BusMessage | null = null;
        try {
          message = readBusMessage(JSON.parse(line));
        } catch {
          message = null;
        }
        if (message) void bus.deliver(message);
        else log.warn('dropped a malformed event from the control socket');
        newline = buffered.indexOf('\n');
      }
    });
    connection.on('error', () => connection.destroy());
  });
  try {
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen({ path: file, readableAll: false, writableAll: false }, () => resolve());
    });
    // Whoever can connect can push events to every open page: the owner only, like the rest of DATA_DIR.
    chmodSync(file, privateModes.file);
  } catch (error) {
    log.warn({ err: error, file }, 'operator changes will not reach open browsers live');
    return () => Promise.resolve();
  }
  return () =>
    new Promise<void>((resolve) => {
      server.close(() => resolve());
      try {
        unlinkSync(file);
      } catch {
        // Already gone.
      }
    });
}

/** Bus used by operator commands without Redis: forwards each event to a running server, if there is one. */
export class SocketForwardingBus implements EventBus {
  constructor(private readonly dataDir: string) {}

  publish(event: DocumentEvent): Promise<void> {
    return this.#forward({ kind: 'document', ...event });
  }

  publishChanged(change: ChangedTopic): Promise<void> {
    return this.#forward({ kind: 'changed', ...change });
  }

  publishSessionsEnded(ended: EndedSessions): Promise<void> {
    return this.#forward({ kind: 'sessions-ended', ...ended });
  }

  #forward(message: BusMessage): Promise<void> {
    const file = controlSocketPath(this.dataDir);
    if (!existsSync(file)) return Promise.resolve();
    return new Promise((resolve) => {
      const connection = net.connect(file, () => {
        connection.end(`${JSON.stringify(message)}\n`, () => resolve());
      });
      // No running server: the change is saved, and browsers will read it on their next load.
      connection.on('error', () => resolve());
    });
  }

  subscribe(): () => void {
    return () => undefined;
  }

  connected(): boolean {
    return true;
  }

  close(): Promise<void> {
    return Promise.resolve();
  }
}
