import { afterAll, afterEach, beforeAll } from 'vitest';
import type { Env } from '../config.js';
import {
  connectRealtime,
  createTestApp,
  listen,
  type DatabaseTarget,
  type RealtimeClient,
  type TestApp,
} from './harness.js';

/** A test app listening on a port, with the sockets a test opens on it closed after that test. */
export interface ListeningApp extends TestApp {
  /** `http://127.0.0.1:<port>`. */
  readonly baseUrl: string;
  /** Opens `/api/realtime` on the app (see connectRealtime); the socket is closed when the test ends. */
  connect(options?: Parameters<typeof connectRealtime>[1]): Promise<RealtimeClient>;
}

/**
 * Builds a listening app before the tests of the calling `describe` and closes it after them. Read its
 * members inside hooks and tests only: the app exists from the `beforeAll` this registers, which runs
 * before the caller's own.
 */
export function setUpListeningApp(
  target: DatabaseTarget,
  env: Partial<Record<keyof Env, string>> = {},
): ListeningApp {
  let built: { t: TestApp; baseUrl: string } | undefined;
  const open: RealtimeClient[] = [];
  const current = () => {
    if (!built) throw new Error('the listening app exists only in hooks and tests');
    return built;
  };
  const close = async () => {
    const closing = built;
    built = undefined;
    await closing?.t.close();
  };

  beforeAll(async () => {
    const t = await createTestApp(target, env);
    try {
      built = { t, baseUrl: await listen(t) };
    } catch (error) {
      await t.close();
      throw error;
    }
  });
  afterEach(async () => {
    await Promise.all(open.splice(0).map((client) => client.close()));
  });
  afterAll(close);

  return {
    get app() {
      return current().t.app;
    },
    get config() {
      return current().t.config;
    },
    get mail() {
      return current().t.mail;
    },
    get baseUrl() {
      return current().baseUrl;
    },
    close,
    async connect(options) {
      const client = await connectRealtime(current().baseUrl, options);
      open.push(client);
      return client;
    },
  };
}

/** Every message the server sent since the last read, each a document, grouped by topic in arrival order. */
export async function receivedDocuments(client: RealtimeClient): Promise<Map<string, unknown[]>> {
  const byTopic = new Map<string, unknown[]>();
  for (const message of await client.flush()) {
    if (message.type !== 'doc') throw new Error(`not a document: ${JSON.stringify(message)}`);
    byTopic.set(message.topic, [...(byTopic.get(message.topic) ?? []), message.data]);
  }
  return byTopic;
}
