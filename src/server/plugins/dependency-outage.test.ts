import { mkdtempSync, rmSync } from 'node:fs';
import net from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { LightMyRequestResponse } from 'fastify';
import { Redis } from 'ioredis';
import { afterEach, describe, expect, it } from 'vitest';
import { rateLimits } from '../../shared/limits.js';
import {
  createTestApp,
  databaseTargets,
  deleteRedisKeys,
  expectError,
  newUserInput,
  send,
  signUp,
  testRedisUrl,
  uniqueIp,
  uniqueRedisPrefix,
  type TestApp,
} from '../test/harness.js';
import { OwnRedisServer } from '../test/redis-server.js';

/** A hang guard, not a performance claim: today's failure is a request held for many seconds. */
const boundMs = 3_000;

/** Runs a request and asserts it was answered within `boundMs`. */
async function answered(request: Promise<LightMyRequestResponse>) {
  const started = Date.now();
  const response = await request;
  expect(Date.now() - started, response.body).toBeLessThan(boundMs);
  return response;
}

async function until(condition: () => Promise<boolean>, ms = 15_000): Promise<void> {
  const deadline = Date.now() + ms;
  while (!(await condition())) {
    if (Date.now() > deadline) throw new Error('the condition never held');
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

const redisRunnable = Boolean(testRedisUrl) && OwnRedisServer.available();
if (!redisRunnable) {
  console.error(
    'Redis outage tests skipped: set TEST_REDIS_URL and install redis-server to run them.',
  );
}
const postgresUrl = process.env.TEST_DATABASE_URL;
if (!postgresUrl) {
  console.error('PostgreSQL outage tests skipped: set TEST_DATABASE_URL to run them.');
}

describe.each(databaseTargets)('with Redis stopped, on $name', { timeout: 60_000 }, (target) => {
  const cleanup: (() => Promise<void>)[] = [];
  afterEach(async () => {
    for (const step of cleanup.splice(0).reverse()) await step();
  });

  it.skipIf(!redisRunnable)(
    'reads and writes go on, limits hold in the process, and readiness follows Redis',
    async () => {
      const redis = await OwnRedisServer.onFreePort();
      cleanup.push(() => redis.kill());
      await redis.start();
      const prefix = uniqueRedisPrefix();
      const t: TestApp = await createTestApp(target, {
        REDIS_URL: redis.url,
        REDIS_PREFIX: prefix,
      });
      cleanup.push(() => t.close());
      const { cookie } = await signUp(t.app);
      expect((await send(t.app, 'GET', '/api/ready')).json()).toEqual({
        status: 'ok',
        checks: { database: 'ok', redis: 'ok' },
      });

      await redis.kill();

      const feed = await answered(send(t.app, 'GET', '/api/feed?tab=everyone'));
      expect(feed.statusCode, feed.body).toBe(200);
      const signedUp = await answered(send(t.app, 'POST', '/api/auth/sign-up', newUserInput()));
      expect(signedUp.statusCode, signedUp.body).toBe(201);
      const posted = await answered(
        send(t.app, 'POST', '/api/posts', { body: 'Written while Redis is down' }, { cookie }),
      );
      expect(posted.statusCode, posted.body).toBe(201);
      const ready = await answered(send(t.app, 'GET', '/api/ready'));
      expect(ready.statusCode).toBe(503);
      expect(ready.json()).toEqual({
        status: 'unavailable',
        checks: { database: 'ok', redis: 'unavailable' },
      });

      // Limits still apply, counted in this process for now.
      const ip = uniqueIp();
      for (let i = 0; i < rateLimits.signUpAccounts.max; i += 1) {
        const response = await answered(
          send(t.app, 'POST', '/api/auth/sign-up', newUserInput(), { ip }),
        );
        expect(response.statusCode, response.body).toBe(201);
      }
      expectError(
        await answered(send(t.app, 'POST', '/api/auth/sign-up', newUserInput(), { ip })),
        429,
        'rate_limited',
      );

      await redis.start();
      await until(async () => (await send(t.app, 'GET', '/api/ready')).statusCode === 200);

      // Counters are shared through Redis again (a command may time out on a busy machine and be
      // counted here instead, so a few requests are allowed to get there).
      const again = uniqueIp();
      const client = new Redis(redis.url);
      try {
        await until(async () => {
          const response = await send(t.app, 'GET', '/api/instance', undefined, { ip: again });
          expect(response.statusCode).toBe(200);
          return (await client.exists(`${prefix}rl:api:ip:${again}`)) === 1;
        });
      } finally {
        client.disconnect();
      }
      await deleteRedisKeys(redis.url, prefix);
    },
  );
});

/**
 * A TCP relay in front of PostgreSQL, so a test can cut the app off from its database (the server itself is
 * shared and must stay up).
 */
async function relayTo(target: URL) {
  const sockets = new Set<net.Socket>();
  const server = net.createServer((client) => {
    const upstream = net.connect(Number(target.port || 5432), target.hostname);
    for (const socket of [client, upstream]) {
      sockets.add(socket);
      socket.on('close', () => sockets.delete(socket));
      socket.on('error', () => undefined);
    }
    client.pipe(upstream).pipe(client);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  const port = typeof address === 'object' && address ? address.port : 0;
  return {
    port,
    /** Refuses new connections and cuts every open one, as a stopped database server would. */
    cut: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        for (const socket of sockets) socket.destroy();
      }),
  };
}

describe.skipIf(!postgresUrl)('with PostgreSQL unreachable', { timeout: 60_000 }, () => {
  const cleanup: (() => Promise<void>)[] = [];
  afterEach(async () => {
    for (const step of cleanup.splice(0).reverse()) await step();
  });

  it('answers 503 unavailable in the one error shape, promptly', async () => {
    const postgres = databaseTargets.find((candidate) => candidate.name === 'postgres');
    if (!postgres) throw new Error('no PostgreSQL target');
    const database = await postgres.create();
    cleanup.push(() => database.drop());
    const relay = await relayTo(new URL(database.url ?? ''));
    let relayOpen = true;
    cleanup.push(async () => {
      if (relayOpen) await relay.cut();
    });
    const viaRelay = new URL(database.url ?? '');
    viaRelay.host = `127.0.0.1:${relay.port}`;
    const dataDir = mkdtempSync(path.join(tmpdir(), 'hearth-test-'));
    cleanup.push(() => {
      rmSync(dataDir, { recursive: true, force: true });
      return Promise.resolve();
    });
    const t = await createTestApp(postgres, {}, { databaseUrl: viaRelay.toString(), dataDir });
    cleanup.push(() => t.close());
    const { cookie, input } = await signUp(t.app);

    await relay.cut();
    relayOpen = false;

    for (const request of [
      () => send(t.app, 'GET', '/api/feed?tab=everyone'),
      () => send(t.app, 'GET', '/api/feed?tab=everyone', undefined, { cookie }),
      () => send(t.app, 'POST', '/api/posts', { body: 'Lost in the void' }, { cookie }),
      () =>
        send(t.app, 'POST', '/api/auth/sign-in', {
          identifier: input.username,
          password: input.password,
        }),
      () => send(t.app, 'POST', '/api/auth/sign-up', newUserInput()),
    ]) {
      const response = await answered(request());
      expectError(response, 503, 'unavailable');
      expect(response.headers['retry-after']).toMatch(/^\d+$/);
    }
    const ready = await answered(send(t.app, 'GET', '/api/ready'));
    expect(ready.statusCode).toBe(503);
    expect(ready.json()).toEqual({ status: 'unavailable', checks: { database: 'unavailable' } });
    // The instance is alive, just not ready.
    expect((await send(t.app, 'GET', '/api/health')).statusCode).toBe(200);
  });
});
