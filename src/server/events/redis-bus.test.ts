import { createServer, type AddressInfo, type Socket } from 'node:net';
import { Redis } from 'ioredis';
import pino from 'pino';
import { afterEach, describe, expect, it } from 'vitest';
import { testRedisUrl, uniqueRedisPrefix } from '../test/harness.js';
import { OwnRedisServer } from '../test/redis-server.js';
import { postTopic } from '../../shared/realtime-protocol.js';
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

/** A post's deletion, whose topic names what was published: ids are digits, one per step of a test. */
const event = (id: string): DocumentEvent => ({ topic: postTopic(id), data: null });

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
    const ended: string[] = [];
    let resumed = 0;
    connected.subscribe({
      document: (delivered) => received.push(delivered.topic),
      changed: ({ topic }) => {
        received.push(`changed ${topic}`);
        return Promise.resolve();
      },
      sessionsEnded: ({ uid }) => ended.push(uid),
      resumed: () => {
        resumed += 1;
      },
    });
    return { bus: connected, received, ended, resumed: () => resumed };
  }

  it('never fails a publish, and subscriptions come back when Redis does', async () => {
    const redis = await server();
    await redis.start();
    const prefix = uniqueRedisPrefix();
    const a = await bus(redis.url, prefix);
    const b = await bus(redis.url, prefix);
    await a.bus.publish(event('1'));
    await until(() => b.received.includes('posts/1'));
    await a.bus.publishSessionsEnded({ uid: 'ada', sessionIds: ['s1'] });
    await until(() => b.ended.includes('ada'));
    // A start with Redis there misses nothing: no one is told to read afresh.
    expect([a.resumed(), b.resumed()]).toEqual([0, 0]);

    await redis.kill();
    await until(() => !a.bus.connected() && !b.bus.connected());
    // The write behind the event is committed: publishing must settle, quietly, and promptly.
    const started = Date.now();
    await expect(a.bus.publish(event('2'))).resolves.toBeUndefined();
    expect(Date.now() - started).toBeLessThan(3_000);
    // This instance's own sockets still hear of it, and of sessions that ended.
    expect(a.received).toContain('posts/2');
    await expect(
      a.bus.publishSessionsEnded({ uid: 'bob', sessionIds: null }),
    ).resolves.toBeUndefined();
    expect(a.ended).toContain('bob');

    await redis.start();
    await until(() => a.bus.connected() && b.bus.connected());
    // Each is told, once subscribed again, that it may have missed events.
    await until(() => a.resumed() === 1 && b.resumed() === 1);
    await a.bus.publish(event('3'));
    await until(() => b.received.includes('posts/3'));
    expect(b.received).not.toContain('posts/2');
    expect(b.ended).not.toContain('bob');
  });

  it('drops a message that is not one of its own', async () => {
    const redis = await server();
    await redis.start();
    const prefix = uniqueRedisPrefix();
    const a = await bus(redis.url, prefix);
    const raw = new Redis(redis.url);
    cleanup.push(async () => {
      raw.disconnect();
      return Promise.resolve();
    });
    for (const payload of [
      'not json',
      JSON.stringify({ topic: 'posts/1', data: null }),
      JSON.stringify({ kind: 'document', topic: 'comments/1', data: null }),
      JSON.stringify({ kind: 'sessions-ended', uid: 'ada', sessionIds: [1] }),
      JSON.stringify({ kind: 'changed', topic: 'comments/1' }),
      JSON.stringify({ kind: 'changed' }),
    ]) {
      await raw.publish(`${prefix}events`, payload);
    }
    await a.bus.publishChanged({ topic: postTopic('5') });
    await a.bus.publish(event('6'));
    await until(() => a.received.includes('posts/6'));
    expect(a.received).toEqual(['changed posts/5', 'posts/6']);
    expect(a.ended).toEqual([]);
  });

  it('starts while Redis is unreachable, and joins it once it answers', async () => {
    const redis = await server();
    const prefix = uniqueRedisPrefix();
    const started = Date.now();
    const a = await bus(redis.url, prefix);
    expect(Date.now() - started).toBeLessThan(5_000);
    expect(a.bus.connected()).toBe(false);
    await expect(a.bus.publish(event('4'))).resolves.toBeUndefined();

    await redis.start();
    const b = await bus(redis.url, prefix);
    await until(() => a.bus.connected());
    // It served without Redis: once it hears other instances, it may have missed their events.
    await until(() => a.resumed() === 1);
    expect(b.resumed()).toBe(0);
    await b.bus.publish(event('5'));
    await until(() => a.received.includes('posts/5'));
  });
});

/**
 * A stand-in for Redis that speaks just enough of its protocol to hold a client mid-command: it answers
 * the ready check, PUBLISH and QUIT, and answers SUBSCRIBE only while `answerSubscribe` says so.
 */
class HeldRedis {
  readonly #server = createServer((socket) => {
    this.#sockets.add(socket);
    socket.on('close', () => this.#sockets.delete(socket));
    let buffered = '';
    socket.on('data', (chunk) => {
      buffered += chunk.toString('latin1');
      for (;;) {
        const parsed = readCommand(buffered);
        if (!parsed) break;
        buffered = buffered.slice(parsed.length);
        this.#answer(socket, parsed.args);
      }
    });
  });
  readonly #sockets = new Set<Socket>();
  answerSubscribe = true;
  /** The SUBSCRIBE commands left unanswered, as sockets that sent them. */
  readonly held: Socket[] = [];
  #heldWaiter: (() => void) | undefined;

  async listen(): Promise<string> {
    await new Promise<void>((resolve) => this.#server.listen(0, '127.0.0.1', resolve));
    const { port } = this.#server.address() as AddressInfo;
    return `redis://127.0.0.1:${String(port)}`;
  }

  /** Resolves once a SUBSCRIBE is being held. */
  subscribeHeld(): Promise<void> {
    if (this.held.length > 0) return Promise.resolve();
    return new Promise((resolve) => (this.#heldWaiter = resolve));
  }

  /** Drops every connection, as a Redis that restarts does. */
  dropAll(): void {
    for (const socket of this.#sockets) socket.destroy();
  }

  async close(): Promise<void> {
    this.dropAll();
    await new Promise<void>((resolve) => this.#server.close(() => resolve()));
  }

  #answer(socket: Socket, args: string[]): void {
    const name = (args[0] ?? '').toLowerCase();
    if (name === 'info') {
      const info = '# Persistence\r\nloading:0\r\n';
      socket.write(`$${String(Buffer.byteLength(info))}\r\n${info}\r\n`);
    } else if (name === 'subscribe') {
      if (!this.answerSubscribe) {
        this.held.push(socket);
        this.#heldWaiter?.();
        return;
      }
      for (const [index, channel] of args.slice(1).entries()) {
        socket.write(
          `*3\r\n$9\r\nsubscribe\r\n$${String(Buffer.byteLength(channel))}\r\n${channel}\r\n:${String(index + 1)}\r\n`,
        );
      }
    } else if (name === 'publish') {
      socket.write(':0\r\n');
    } else {
      socket.write('+OK\r\n');
    }
  }
}

/** One RESP command (an array of bulk strings) from the front of `text`, or null when it is incomplete. */
function readCommand(text: string): { args: string[]; length: number } | null {
  const header = /^\*(\d+)\r\n/.exec(text);
  if (!header) return null;
  let offset = header[0].length;
  const args: string[] = [];
  for (let index = 0; index < Number(header[1]); index += 1) {
    const size = /^\$(\d+)\r\n/.exec(text.slice(offset));
    if (!size) return null;
    offset += size[0].length;
    const end = offset + Number(size[1]);
    if (text.length < end + 2) return null;
    args.push(text.slice(offset, end));
    offset = end + 2;
  }
  return { args, length: offset };
}

describe('RedisEventBus when Redis drops it while it subscribes again', () => {
  it('closes without leaving a promise unhandled', async () => {
    const unhandled: unknown[] = [];
    const onUnhandled = (reason: unknown) => unhandled.push(reason);
    process.on('unhandledRejection', onUnhandled);
    const redis = new HeldRedis();
    try {
      const url = await redis.listen();
      const connected = await RedisEventBus.connect(url, uniqueRedisPrefix(), silent);
      expect(connected.connected()).toBe(true);

      // Redis restarts, and the bus's subscriber connects again and sends its SUBSCRIBE, which stays
      // unanswered; the instance shuts down meanwhile, which rejects every command still waiting.
      redis.answerSubscribe = false;
      redis.dropAll();
      await redis.subscribeHeld();
      await connected.close();
      // Rejections nobody handles are reported once the microtasks of this turn have run.
      await new Promise((resolve) => setTimeout(resolve, 50));
      expect(unhandled).toEqual([]);
    } finally {
      process.off('unhandledRejection', onUnhandled);
      await redis.close();
    }
  });
});
