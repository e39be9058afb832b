/**
 * Live updates across a Redis outage (ADR 0011, ADR 0013): a write made while Redis is down is saved and
 * answered as usual, and sockets on other instances catch up once Redis is back, without reconnecting.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { postTopic, type ServerMessage } from '../../shared/realtime.js';
import { postSchema, postViewSchema } from '../../shared/schemas/post.js';
import {
  connectRealtime,
  createInstancePair,
  databaseTargets,
  listen,
  send,
  signUp,
  testRedisUrl,
  type InstancePair,
  type RealtimeClient,
  type TestApp,
} from '../test/harness.js';
import { OwnRedisServer } from '../test/redis-server.js';

const runnable = Boolean(testRedisUrl) && OwnRedisServer.available();
if (!runnable) {
  console.error(
    'Realtime outage tests skipped: set TEST_REDIS_URL and install redis-server to run them.',
  );
}

/** How long a catch-up may take: Redis is found again within a second, then topics are read afresh. */
const catchUpMs = 10_000;

/** Resolves once `check` passes, or fails the test after `ms`. */
async function until(check: () => Promise<boolean>, ms = catchUpMs): Promise<void> {
  const deadline = Date.now() + ms;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error('the condition never held');
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
}

/** Reads the socket until `wanted` is met, failing after `ms`; returns the message that met it. */
async function readUntil(
  client: RealtimeClient,
  wanted: (message: ServerMessage) => boolean,
  what: string,
  ms = catchUpMs,
): Promise<ServerMessage> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`${what}: nothing within ${String(ms)} ms`)), ms);
  });
  const read = async () => {
    for (;;) {
      const message = await client.next();
      if (wanted(message)) return message;
    }
  };
  try {
    return await Promise.race([read(), timeout]);
  } finally {
    clearTimeout(timer);
  }
}

const isReady = async (t: TestApp) => (await send(t.app, 'GET', '/api/ready')).statusCode === 200;

describe.runIf(runnable).each(databaseTargets)(
  'realtime across a Redis outage on $name',
  { timeout: 60_000 },
  (target) => {
    const cleanup: (() => Promise<void>)[] = [];
    afterEach(async () => {
      for (const step of cleanup.splice(0).reverse()) await step();
    });

    /** Its own Redis server, and two instances of one deployment on it. */
    async function deployment(): Promise<{ redis: OwnRedisServer; pair: InstancePair }> {
      const redis = await OwnRedisServer.onFreePort();
      await redis.start();
      cleanup.push(() => redis.kill());
      const pair = await createInstancePair(target, redis.url);
      // Closing deletes the pair's keys, so Redis must be up by then whatever the test did to it.
      cleanup.push(async () => {
        if (redis.pid === undefined) await redis.start();
        await pair.close();
      });
      return { redis, pair };
    }

    async function watch(baseUrl: string, cookie?: string): Promise<RealtimeClient> {
      const client = await connectRealtime(baseUrl, { cookie });
      cleanup.push(() => client.close());
      return client;
    }

    it("a like made on A while Redis is down is saved, answered, and reaches B's socket once Redis is back", async () => {
      const { redis, pair } = await deployment();
      const { a, b } = pair;
      const baseB = await listen(b);
      const author = await signUp(a.app);
      const reader = await signUp(a.app);
      const created = await send(
        a.app,
        'POST',
        '/api/posts',
        { body: 'Liked in the dark' },
        {
          cookie: author.cookie,
        },
      );
      expect(created.statusCode, created.body).toBe(201);
      const post = postViewSchema.parse(created.json());
      const topic = postTopic(post.id);

      const socket = await watch(baseB);
      socket.send({ type: 'subscribe', topic });
      expect(await socket.next()).toEqual({
        type: 'doc',
        topic,
        data: postSchema.parse(post),
      });

      await redis.kill();
      await until(async () => !(await isReady(a)) && !(await isReady(b)));

      // The like is committed before anything is published: it must answer as usual, and promptly.
      const started = Date.now();
      const liked = await send(a.app, 'PUT', `/api/posts/${post.id}/like`, undefined, {
        cookie: reader.cookie,
      });
      expect(liked.statusCode, liked.body).toBe(200);
      expect(liked.json()).toEqual({ liked: true, likeCount: 1 });
      expect(Date.now() - started).toBeLessThan(3_000);
      const saved = await send(a.app, 'GET', `/api/posts/${post.id}`);
      expect(postViewSchema.parse(saved.json()).likeCount).toBe(1);
      // B could not hear of it: its socket still holds the document from before the like.
      expect(await socket.flush()).toEqual([]);

      await redis.start();
      const message = await readUntil(
        socket,
        (candidate) =>
          candidate.type === 'doc' &&
          candidate.topic === topic &&
          postSchema.safeParse(candidate.data).data?.likeCount === 1,
        "B's socket receiving the liked post",
      );
      expect(message).toEqual({
        type: 'doc',
        topic,
        data: postSchema.parse({ ...post, likeCount: 1 }),
      });
      await until(async () => (await isReady(a)) && (await isReady(b)));

      // And live updates cross instances again, event by event.
      const unliked = await send(a.app, 'DELETE', `/api/posts/${post.id}/like`, undefined, {
        cookie: reader.cookie,
      });
      expect(unliked.statusCode, unliked.body).toBe(200);
      await readUntil(
        socket,
        (candidate) =>
          candidate.type === 'doc' &&
          candidate.topic === topic &&
          postSchema.safeParse(candidate.data).data?.likeCount === 0,
        "B's socket receiving the unliked post",
      );
    });

    it('a sign-out on A while Redis is down reaches the sockets of that session on B once Redis is back', async () => {
      const { redis, pair } = await deployment();
      const { a, b } = pair;
      const baseB = await listen(b);
      const person = await signUp(a.app);
      const socket = await watch(baseB, person.cookie);
      // A socket of another account, which must hear nothing of it.
      const other = await signUp(a.app);
      const bystander = await watch(baseB, other.cookie);
      expect(await socket.flush()).toEqual([]);

      await redis.kill();
      await until(async () => !(await isReady(a)) && !(await isReady(b)));
      const signedOut = await send(a.app, 'POST', '/api/auth/sign-out', undefined, {
        cookie: person.cookie,
      });
      expect(signedOut.statusCode, signedOut.body).toBe(200);
      expect(await socket.flush()).toEqual([]);

      await redis.start();
      await readUntil(
        socket,
        (message) => message.type === 'session',
        "the ended session reaching B's socket",
      );
      expect(await bystander.flush()).toEqual([]);
    });
  },
);
