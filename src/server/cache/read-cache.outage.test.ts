/**
 * The read cache across a Redis outage (ADR 0028): while events may be missed an instance reads the
 * database, and once Redis is back it trusts its cache again, now dropped by events as before.
 */
import { afterEach, describe, expect, it, vi } from 'vitest';
import { postViewSchema } from '../../shared/schemas/post.js';
import {
  createInstancePair,
  databaseTargets,
  send,
  signUp,
  testRedisUrl,
  type TestApp,
} from '../test/harness.js';
import { OwnRedisServer } from '../test/redis-server.js';

const runnable = Boolean(testRedisUrl) && OwnRedisServer.available();
if (!runnable) {
  console.error('Read cache outage tests skipped: set TEST_REDIS_URL and install redis-server.');
}

const isReady = async (t: TestApp) => (await send(t.app, 'GET', '/api/ready')).statusCode === 200;

async function body(t: TestApp, postId: string): Promise<string> {
  const response = await send(t.app, 'GET', `/api/posts/${postId}`);
  expect(response.statusCode, response.body).toBe(200);
  return postViewSchema.parse(response.json()).body;
}

const waitFor = (check: () => Promise<void>) =>
  vi.waitFor(check, { timeout: 10_000, interval: 25 });

describe.runIf(runnable).each(databaseTargets)(
  'read cache across a Redis outage on $name',
  { timeout: 60_000 },
  (target) => {
    const cleanup: (() => Promise<void>)[] = [];
    afterEach(async () => {
      for (const step of cleanup.splice(0).reverse()) await step();
    });

    it('an instance that may have missed events reads the database, and caches again once Redis is back', async () => {
      const redis = await OwnRedisServer.onFreePort();
      await redis.start();
      cleanup.push(() => redis.kill());
      const pair = await createInstancePair(target, redis.url);
      cleanup.push(async () => {
        if (redis.pid === undefined) await redis.start();
        await pair.close();
      });
      const { a, b } = pair;
      const author = await signUp(a.app);
      const edit = async (text: string) => {
        const response = await send(
          a.app,
          'PATCH',
          `/api/posts/${postId}`,
          { body: text },
          { cookie: author.cookie },
        );
        expect(response.statusCode, response.body).toBe(200);
      };
      const created = await send(
        a.app,
        'POST',
        '/api/posts',
        { body: 'Before the outage' },
        { cookie: author.cookie },
      );
      expect(created.statusCode, created.body).toBe(201);
      const postId = postViewSchema.parse(created.json()).id;
      // B now holds the post in its cache.
      expect(await body(b, postId)).toBe('Before the outage');
      expect(await body(b, postId)).toBe('Before the outage');

      await redis.kill();
      await waitFor(async () => {
        expect(await isReady(a)).toBe(false);
        expect(await isReady(b)).toBe(false);
      });
      await edit('During the outage');
      // B never hears of the edit: once it sees the outage it must stop answering from its cache.
      await waitFor(async () => {
        expect(await body(b, postId)).toBe('During the outage');
      });

      await redis.start();
      await waitFor(async () => {
        expect(await isReady(a)).toBe(true);
        expect(await isReady(b)).toBe(true);
      });
      await waitFor(async () => {
        expect(await body(b, postId)).toBe('During the outage');
      });
      // Cached again, and dropped again by the next edit's event.
      expect(await body(b, postId)).toBe('During the outage');
      await edit('After the outage');
      await waitFor(async () => {
        expect(await body(b, postId)).toBe('After the outage');
      });
    });
  },
);
