import pino from 'pino';
import { afterEach, describe, expect, it } from 'vitest';
import { testRedisUrl, uniqueRedisPrefix } from '../test/harness.js';
import { OwnRedisServer } from '../test/redis-server.js';
import type { DocumentEvent } from './bus.js';
import { RedisEventBus } from './redis-bus.js';

const silent = pino({ level: 'silent' });
const runnable = Boolean(testRedisUrl) && OwnRedisServer.available();
if (!runnable) {
  console.error(
    'Redis outage tests skipped: set TEST_REDIS_URL and install redis-server to run them.',
  );
}

/** Resolves once `condition` holds, or fails the test after `ms`. */
async function until(condition: () => boolean, ms = 10_000): Promise<void> {
  const deadline = Date.now() + ms;
  while (!condition()) {
    if (Date.now() > deadline) throw new Error('the condition never held');
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
}

const event = (id: string): DocumentEvent => ({ topic: `posts/${id}`, data: null });

describe.skipIf(!runnable)('RedisEventBus when Redis goes away', { timeout: 30_000 }, () => {
  const cleanup: (() => Promise<void>)[] = [];
  afterEach(async () => {
    for (const step of cleanup.splice(0).reverse()) await step();
  });

  async function server() {
    const redis = await OwnRedisServer.onFreePort();
    cleanup.push(() => redis.kill());
    return redis;
  }
  async function bus(url: string, prefix: string) {
    const connected = await RedisEventBus.connect(url, prefix, silent);
    cleanup.push(() => connected.close());
    const received: string[] = [];
    connected.subscribe((delivered) => received.push(delivered.topic));
    return { bus: connected, received };
  }

  it('never fails a publish, and subscriptions come back when Redis does', async () => {
    const redis = await server();
    await redis.start();
    const prefix = uniqueRedisPrefix();
    const a = await bus(redis.url, prefix);
    const b = await bus(redis.url, prefix);
    await a.bus.publish(event('before'));
    await until(() => b.received.includes('posts/before'));

    await redis.kill();
    await until(() => !a.bus.connected() && !b.bus.connected());
    // The write behind the event is committed: publishing must settle, quietly, and promptly.
    const started = Date.now();
    await expect(a.bus.publish(event('during'))).resolves.toBeUndefined();
    expect(Date.now() - started).toBeLessThan(3_000);
    // This instance's own sockets still hear of it.
    expect(a.received).toContain('posts/during');

    await redis.start();
    await until(() => a.bus.connected() && b.bus.connected());
    await a.bus.publish(event('after'));
    await until(() => b.received.includes('posts/after'));
    expect(b.received).not.toContain('posts/during');
  });

  it('starts while Redis is unreachable, and joins it once it answers', async () => {
    const redis = await server();
    const prefix = uniqueRedisPrefix();
    const started = Date.now();
    const a = await bus(redis.url, prefix);
    expect(Date.now() - started).toBeLessThan(5_000);
    expect(a.bus.connected()).toBe(false);
    await expect(a.bus.publish(event('offline'))).resolves.toBeUndefined();

    await redis.start();
    const b = await bus(redis.url, prefix);
    await until(() => a.bus.connected());
    await b.bus.publish(event('online'));
    await until(() => a.received.includes('posts/online'));
  });
});
