import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import type { WebSocket } from '@fastify/websocket';
import { realtimeLimits } from '../../shared/limits.js';
import { realtimeCloseCodes, userTopic, type ServerMessage } from '../../shared/realtime.js';
import { SocketForwardingBus } from '../events/local-socket.js';
import {
  clientTextFrame,
  closesWithin,
  connectRealtime,
  createInstancePair,
  createTestApp,
  databaseTargets,
  listen,
  rawRealtimeUpgrade,
  realtimeUpgradeStatus,
  signUp,
  testOrigin,
  testRedisUrl,
  type RealtimeClient,
  type InstancePair,
  type TestApp,
} from '../test/harness.js';

/** Long enough for a server to end a connection it means to end; far shorter than any hang. */
const settleMs = 5_000;

/** The server's side of the newest socket, as the WebSocket server tracks it. */
function newestServerSocket(t: TestApp): WebSocket {
  const socket = [...t.app.websocketServer.clients].at(-1);
  if (!socket) throw new Error('the server holds no socket');
  return socket;
}

/** Reads messages until the server closes the socket; returns them and the close error. */
async function readUntilClosed(client: RealtimeClient) {
  const messages: ServerMessage[] = [];
  for (;;) {
    try {
      const message = await client.next();
      messages.push(message);
      if (message.type === 'pong') return { messages, closed: undefined };
    } catch (error) {
      return { messages, closed: error as Error };
    }
  }
}

describe.each(databaseTargets)('realtime limits on $name', (target) => {
  let t: TestApp;
  let baseUrl: string;
  const open: RealtimeClient[] = [];
  const connect = async (options?: Parameters<typeof connectRealtime>[1]) => {
    const client = await connectRealtime(baseUrl, options);
    open.push(client);
    return client;
  };

  beforeAll(async () => {
    t = await createTestApp(target);
    baseUrl = await listen(t);
  });
  afterEach(async () => {
    await Promise.all(open.splice(0).map((client) => client.close()));
    vi.restoreAllMocks();
  });
  afterAll(async () => {
    await t.close();
  });

  it('drops a socket that stopped reading once its send buffer passes the limit', async () => {
    const { user } = await signUp(t.app);
    const topic = userTopic(user.uid);
    const raw = await rawRealtimeUpgrade(baseUrl);
    expect(raw.status).toBe(101);
    raw.socket.write(clientTextFrame(JSON.stringify({ type: 'subscribe', topic })));
    if (raw.rest.length === 0) await once(raw.socket, 'data');
    // From here on the reader reads nothing, like a paused tab or a hostile client.
    raw.socket.pause();
    const server = newestServerSocket(t);

    const data = { ...(await t.app.services.users.getById(user.uid)), bio: 'x'.repeat(128 * 1024) };
    const bus = new SocketForwardingBus(t.config.dataDir);
    let largestBuffer = 0;
    for (let sent = 0; sent < 500 && server.readyState === server.OPEN; sent += 1) {
      await bus.publish({ topic, data });
      largestBuffer = Math.max(largestBuffer, server.bufferedAmount);
    }
    await expect.poll(() => server.readyState, { timeout: settleMs }).toBe(server.CLOSED);
    // One document may land on top of a buffer just under the limit, never more.
    expect(largestBuffer).toBeLessThanOrEqual(
      realtimeLimits.maxBufferedBytes + JSON.stringify(data).length + 1024,
    );
    raw.socket.destroy();
  });

  it('refuses messages past the rate with an error, then closes a socket that keeps going', async () => {
    const client = await connect();
    const total = realtimeLimits.messages.burst + realtimeLimits.maxRefusedMessages + 50;
    for (let sent = 0; sent < total; sent += 1) {
      client.send({ type: sent % 2 === 0 ? 'subscribe' : 'unsubscribe', topic: 'users/churn' });
    }
    client.send({ type: 'ping' });
    const { messages, closed } = await readUntilClosed(client);
    expect(messages).toContainEqual(
      expect.objectContaining({ type: 'error', code: 'rate_limited' }),
    );
    expect(closed?.message).toMatch(new RegExp(`\\(${realtimeCloseCodes.policy}\\)`));
  });

  it('reads at most a few snapshots at a time for one socket, and answers every subscription', async () => {
    const users = t.app.services.users;
    const findDocument = users.findDocument.bind(users);
    let reading = 0;
    let mostAtOnce = 0;
    vi.spyOn(users, 'findDocument').mockImplementation(async (uid) => {
      reading += 1;
      mostAtOnce = Math.max(mostAtOnce, reading);
      try {
        await new Promise((resolve) => setTimeout(resolve, 5));
        return await findDocument(uid);
      } finally {
        reading -= 1;
      }
    });
    const client = await connect();
    const topics = Array.from({ length: 40 }, (_, index) => userTopic(`nobody${index}`));
    for (const topic of topics) client.send({ type: 'subscribe', topic });
    const answered = new Set<string>();
    while (answered.size < topics.length) {
      const message = await client.next();
      if (message.type === 'doc') answered.add(message.topic);
    }
    expect([...answered].sort()).toEqual([...topics].sort());
    expect(mostAtOnce).toBeGreaterThan(0);
    expect(mostAtOnce).toBeLessThanOrEqual(realtimeLimits.snapshotConcurrency);
  });

  it('serialises each event once, however many sockets follow its topic', async () => {
    const { user } = await signUp(t.app);
    const topic = userTopic(user.uid);
    const clients = await Promise.all(Array.from({ length: 5 }, () => connect()));
    for (const client of clients) client.send({ type: 'subscribe', topic });
    for (const client of clients) expect(await client.next()).toMatchObject({ type: 'doc', topic });

    const stringify = vi.spyOn(JSON, 'stringify');
    await t.app.services.users.setActive(user.username, false);
    for (const client of clients) {
      expect(await client.next()).toMatchObject({ type: 'doc', topic, data: { active: false } });
    }
    const serialised = stringify.mock.calls.filter(([value]) => {
      const message = value as Partial<ServerMessage> | null;
      return typeof message === 'object' && message?.type === 'doc' && message.topic === topic;
    });
    expect(serialised).toHaveLength(1);
  });

  it('answers a refused upgrade (403) and ends the TCP connection', async () => {
    const raw = await rawRealtimeUpgrade(baseUrl, { origin: 'https://attacker.example' });
    expect(raw.status).toBe(403);
    // A proxy must not reuse the connection, and the server must not leave it open.
    expect(raw.head).toMatch(/^connection: close$/im);
    expect(await closesWithin(raw.closed, settleMs)).toBe(true);
    raw.socket.destroy();
  });
});

describe.each(databaseTargets)('realtime socket caps on $name', (target) => {
  let t: TestApp;
  let baseUrl: string;
  const open: RealtimeClient[] = [];

  // An app per test: each opens more sockets than the upgrade rate would let two tests open together.
  beforeEach(async () => {
    t = await createTestApp(target);
    baseUrl = await listen(t);
  });
  afterEach(async () => {
    await Promise.all(open.splice(0).map((client) => client.close()));
    await t.close();
  });

  it('refuses sockets past the per-account cap with 429, while the address may still connect', async () => {
    const { cookie } = await signUp(t.app);
    for (let count = 0; count < realtimeLimits.socketsPerAccount; count += 1) {
      open.push(await connectRealtime(baseUrl, { cookie }));
    }
    expect(await realtimeUpgradeStatus(baseUrl, { origin: testOrigin, cookie })).toBe(429);
    open.push(await connectRealtime(baseUrl));
  });

  it('refuses sockets past the per-IP cap with 429, ends the connection, and frees a slot on close', async () => {
    for (let count = 0; count < realtimeLimits.socketsPerIp; count += 1) {
      open.push(await connectRealtime(baseUrl));
    }
    const raw = await rawRealtimeUpgrade(baseUrl);
    expect(raw.status).toBe(429);
    expect(raw.head).toMatch(/^connection: close$/im);
    expect(await closesWithin(raw.closed, settleMs)).toBe(true);
    raw.socket.destroy();

    await open.pop()?.close();
    await expect
      .poll(() => t.app.websocketServer.clients.size)
      .toBe(realtimeLimits.socketsPerIp - 1);
    open.push(await connectRealtime(baseUrl));
  });
});

describe.each(databaseTargets)('realtime upgrade rate on $name', (target) => {
  let t: TestApp;
  let baseUrl: string;

  beforeAll(async () => {
    t = await createTestApp(target);
    baseUrl = await listen(t);
  });
  afterAll(async () => {
    await t.close();
  });

  it('refuses upgrades from one address past its rate with 429', async () => {
    for (let count = 0; count < realtimeLimits.upgrades.max; count += 1) {
      const client = await connectRealtime(baseUrl);
      await client.close();
    }
    expect(await realtimeUpgradeStatus(baseUrl, { origin: testOrigin })).toBe(429);
  });
});

describe.runIf(testRedisUrl).each(databaseTargets)(
  'realtime upgrade rate across instances on $name',
  (target) => {
    let pair: InstancePair;
    let a: TestApp;
    let b: TestApp;

    beforeAll(async () => {
      pair = await createInstancePair(target, testRedisUrl ?? '');
      ({ a, b } = pair);
    });
    afterAll(async () => {
      await pair.close();
    });

    it('counts upgrades made on either instance against one budget', async () => {
      const urls = [await listen(a), await listen(b)];
      for (let count = 0; count < realtimeLimits.upgrades.max; count += 1) {
        const client = await connectRealtime(urls[count % 2] ?? '');
        await client.close();
      }
      for (const url of urls) {
        expect(await realtimeUpgradeStatus(url, { origin: testOrigin })).toBe(429);
      }
    });
  },
);

describe.each(databaseTargets)('realtime at shutdown on $name', (target) => {
  let t: TestApp;
  let baseUrl: string;

  beforeAll(async () => {
    t = await createTestApp(target);
    baseUrl = await listen(t);
  });
  afterAll(async () => {
    await t.close();
  });

  it('says going-away to every socket and cuts one that never answers, so close() finishes', async () => {
    const polite = await connectRealtime(baseUrl);
    const politeClosed = once(polite.socket, 'close');
    const silent = await rawRealtimeUpgrade(baseUrl);
    expect(silent.status).toBe(101);
    // A client that never reads, so it never answers the closing handshake.
    silent.socket.pause();

    const closing = t.app.close();
    const finished = await closesWithin(closing, realtimeLimits.closeGraceMs + settleMs);
    expect(finished).toBe(true);
    const [code] = (await politeClosed) as [number];
    expect(code).toBe(realtimeCloseCodes.goingAway);
    await closing;
    silent.socket.destroy();
  });
});

const mainPath = fileURLToPath(new URL('../main.ts', import.meta.url));
const repoRoot = fileURLToPath(new URL('../../..', import.meta.url));
/** main.ts gives shutdown this long before it gives up and exits 1. */
const shutdownGraceMs = 10_000;

describe.each(databaseTargets)('SIGTERM with an unresponsive socket on $name', (target) => {
  it('exits 0 within the grace period', { timeout: 120_000 }, async () => {
    const dataDir = mkdtempSync(path.join(tmpdir(), 'hearth-main-'));
    const database = await target.create();
    const env: Record<string, string> = {
      DATA_DIR: dataDir,
      PUBLIC_URL: testOrigin,
      NODE_ENV: 'test',
      LOG_LEVEL: 'info',
      PORT: '0',
      HOST: '127.0.0.1',
      WEB_DIR: path.join(dataDir, 'no-web-build'),
      ...(database.url ? { DATABASE_URL: database.url } : {}),
    };
    for (const name of ['PATH', 'HOME', 'TMPDIR']) {
      const value = process.env[name];
      if (value) env[name] = value;
    }
    const server = spawn(process.execPath, ['--import', 'tsx', mainPath], {
      cwd: repoRoot,
      env,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    const exited = once(server, 'exit') as Promise<[number | null, NodeJS.Signals | null]>;
    try {
      let output = '';
      const baseUrl = await new Promise<string>((resolve, reject) => {
        server.stdout.setEncoding('utf8').on('data', (chunk: string) => {
          output += chunk;
          const listening = /listening at (http:\/\/127\.0\.0\.1:\d+)/.exec(output);
          if (listening?.[1]) resolve(listening[1]);
        });
        void exited.then(() => reject(new Error(`the server did not start: ${output}`)));
      });
      const silent = await rawRealtimeUpgrade(baseUrl);
      expect(silent.status).toBe(101);
      silent.socket.pause();

      server.kill('SIGTERM');
      const stopped = await closesWithin(
        exited.then(() => undefined),
        shutdownGraceMs,
      );
      expect(stopped).toBe(true);
      expect((await exited)[0]).toBe(0);
      silent.socket.destroy();
    } finally {
      if (server.exitCode === null) server.kill('SIGKILL');
      await exited;
      await database.drop();
      rmSync(dataDir, { recursive: true, force: true });
    }
  });
});
