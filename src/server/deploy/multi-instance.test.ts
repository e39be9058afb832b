/**
 * Several instances, tested as deployed: two built servers behind nginx, on one PostgreSQL database, one
 * Redis and an S3-compatible store. Runs when TEST_DATABASE_URL and TEST_REDIS_URL are set and nginx is
 * installed.
 */
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { errorBodySchema } from '../../shared/errors.js';
import { rateLimits } from '../../shared/limits.js';
import { feedTopic, type ServerMessage } from '../../shared/realtime.js';
import { sessionResponseSchema } from '../../shared/schemas/auth.js';
import { feedSignalSchema, postViewSchema } from '../../shared/schemas/post.js';
import { userDocumentSchema } from '../../shared/schemas/user.js';
import {
  connectRealtime,
  databaseTargets,
  deleteRedisKeys,
  newUserInput,
  realtimeUpgradeStatus,
  testRedisUrl,
  uniqueIp,
  uniqueRedisPrefix,
  type RealtimeClient,
} from '../test/harness.js';
import * as images from '../test/images.js';
import { freePort } from '../test/ports.js';
import {
  ensureServerBuild,
  findNginx,
  http,
  startInstance,
  startNginx,
  startObjectStore,
  type HttpOptions,
  type Instance,
  type ObjectStore,
  type Proxy,
} from './deployment.js';

const postgres = databaseTargets.find((target) => target.name === 'postgres');
const nginxBinary = findNginx();
const skipReason = !postgres
  ? 'set TEST_DATABASE_URL to run it'
  : !testRedisUrl
    ? 'set TEST_REDIS_URL to run it'
    : !nginxBinary
      ? 'nginx is not installed (apt-get install nginx)'
      : undefined;
if (skipReason)
  console.error(`Deployment test (two instances behind nginx) skipped: ${skipReason}.`);

/** How long to wait for a live event or a closed socket before calling it lost. */
const eventTimeoutMs = 15_000;

function within<T>(promise: Promise<T>, ms: number, what: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`${what}: nothing within ${String(ms)} ms`)), ms);
  });
  return Promise.race([promise, timeout]).finally(() => clearTimeout(timer));
}

/** Reads a socket until the feed announces the post `postId` was created (earlier events are skipped). */
async function feedAnnounces(client: RealtimeClient, postId: string): Promise<void> {
  const read = async () => {
    for (;;) {
      const message: ServerMessage = await client.next();
      if (message.type !== 'doc' || message.topic !== feedTopic) continue;
      const { change } = feedSignalSchema.parse(message.data);
      if (change?.kind === 'created' && change.post.id === postId) return;
    }
  };
  await within(read(), eventTimeoutMs, `the feed event of post ${postId}`);
}

/** Subscribes a socket to the feed and reads its snapshot. */
async function watchFeed(client: RealtimeClient): Promise<void> {
  client.send({ type: 'subscribe', topic: feedTopic });
  const snapshot = await within(client.next(), eventTimeoutMs, 'the feed snapshot');
  expect(snapshot.type === 'doc' && snapshot.topic === feedTopic, JSON.stringify(snapshot)).toBe(
    true,
  );
}

describe.skipIf(skipReason !== undefined)('two instances behind nginx', () => {
  let temp = '';
  const redisPrefix = uniqueRedisPrefix();
  const authSecret = randomBytes(32).toString('base64');
  const sockets: RealtimeClient[] = [];
  let dropDatabase: (() => Promise<void>) | undefined;
  let store: ObjectStore | undefined;
  let a: Instance | undefined;
  let b: Instance | undefined;
  let proxy: Proxy | undefined;
  /** The address browsers use, and so the Origin they send (PUBLIC_URL). */
  let origin = '';
  /** Sign-ups this test sent through nginx (all from 127.0.0.1, whatever X-Forwarded-For said). */
  let signUpsThroughProxy = 0;

  const started = () => {
    if (!a || !b || !proxy || !store) throw new Error('the deployment did not start');
    return { a, b, proxy, store };
  };

  /** A request as the browser at PUBLIC_URL sends it, to nginx or straight to one instance. */
  const request = (
    baseUrl: string,
    method: 'GET' | 'POST' | 'PATCH',
    url: string,
    options: HttpOptions = {},
  ) => http(baseUrl, method, url, { origin, ...options });

  /**
   * Signs up a new person straight on an instance, as a client nginx forwarded from its own address, so
   * setting up accounts spends no sign-up budget of this test's own address.
   */
  async function signUpDirect(instance: Instance) {
    const input = newUserInput();
    const response = await request(instance.baseUrl, 'POST', '/api/auth/sign-up', {
      json: input,
      headers: { 'x-forwarded-for': uniqueIp() },
    });
    expect(response.status, response.text).toBe(201);
    const { user } = sessionResponseSchema.parse(response.json());
    return { input, uid: user?.uid ?? '', cookie: response.cookie };
  }

  async function createPost(baseUrl: string, cookie: string, body: string) {
    const response = await request(baseUrl, 'POST', '/api/posts', { cookie, json: { body } });
    expect(response.status, response.text).toBe(201);
    return postViewSchema.parse(response.json());
  }

  async function openThroughProxy(cookie?: string): Promise<RealtimeClient> {
    const client = await connectRealtime(started().proxy.baseUrl, { origin, cookie });
    sockets.push(client);
    return client;
  }

  beforeAll(async () => {
    const nginx = nginxBinary ?? '';
    temp = mkdtempSync(path.join(tmpdir(), 'hearth-deploy-'));
    ensureServerBuild();
    if (!postgres) throw new Error('PostgreSQL is not configured');
    const database = await postgres.create();
    dropDatabase = () => database.drop();
    store = await startObjectStore(path.join(temp, 's3'), 'hearth-media');
    const [portA, portB, nginxPort] = await Promise.all([freePort(), freePort(), freePort()]);
    origin = `http://127.0.0.1:${String(nginxPort)}`;
    const env = (name: string) => ({
      NODE_ENV: 'production',
      AUTH_SECRET: authSecret,
      PUBLIC_URL: origin,
      DATABASE_URL: database.url ?? '',
      REDIS_URL: testRedisUrl ?? '',
      REDIS_PREFIX: redisPrefix,
      TRUST_PROXY: 'true',
      DATA_DIR: path.join(temp, name),
      WEB_DIR: path.join(temp, 'no-web-build'),
      LOG_LEVEL: 'warn',
      S3_BUCKET: store?.bucket ?? '',
      S3_ENDPOINT: store?.endpoint ?? '',
      S3_FORCE_PATH_STYLE: 'true',
      S3_REGION: 'us-east-1',
      S3_ACCESS_KEY_ID: 'S3RVER',
      S3_SECRET_ACCESS_KEY: 'S3RVER',
    });
    // Both start together, as after a deploy: migrations must take their lock, not collide.
    const starting = await Promise.allSettled([
      startInstance('instance A', portA, env('a')).then((instance) => (a = instance)),
      startInstance('instance B', portB, env('b')).then((instance) => (b = instance)),
    ]);
    for (const result of starting) if (result.status === 'rejected') throw result.reason;
    proxy = await startNginx(nginx, path.join(temp, 'nginx'), [portA, portB], nginxPort);
  }, 300_000);

  afterAll(async () => {
    const problems: unknown[] = [];
    const attempt = async (step: () => Promise<void> | void) => {
      try {
        await step();
      } catch (error) {
        problems.push(error);
      }
    };
    for (const socket of sockets) await attempt(() => within(socket.close(), 5_000, 'close'));
    await attempt(() => proxy?.stop(5_000));
    await Promise.all([attempt(() => a?.stop(12_000)), attempt(() => b?.stop(12_000))]);
    await attempt(() => store?.close());
    await attempt(() => dropDatabase?.());
    await attempt(() => (testRedisUrl ? deleteRedisKeys(testRedisUrl, redisPrefix) : undefined));
    if (temp) rmSync(temp, { recursive: true, force: true });
    if (problems.length > 0) throw new AggregateError(problems, 'cleaning up the deployment');
  }, 60_000);

  it('keeps a session made through the proxy on both instances', async () => {
    const { a, b, proxy } = started();
    const input = newUserInput();
    const signedUp = await request(proxy.baseUrl, 'POST', '/api/auth/sign-up', { json: input });
    signUpsThroughProxy += 1;
    expect(signedUp.status, signedUp.text).toBe(201);
    expect(signedUp.cookie).toMatch(/session_token=/);
    const { user } = sessionResponseSchema.parse(signedUp.json());
    expect(user).not.toBeNull();

    for (const baseUrl of [a.baseUrl, b.baseUrl, proxy.baseUrl, proxy.baseUrl]) {
      const session = await request(baseUrl, 'GET', '/api/auth/session', {
        cookie: signedUp.cookie,
      });
      expect(session.status, session.text).toBe(200);
      expect(sessionResponseSchema.parse(session.json()).user?.uid, baseUrl).toBe(user?.uid);
      // A write needs the session too: each instance accepts it.
      await createPost(baseUrl, signedUp.cookie, `Written through ${baseUrl}`);
    }
  }, 60_000);

  it('delivers a post made on one instance to a socket on the other', async () => {
    const { a, b } = started();
    const author = await signUpDirect(a);
    const reader = await connectRealtime(b.baseUrl, { origin });
    sockets.push(reader);
    await watchFeed(reader);

    const post = await createPost(a.baseUrl, author.cookie, 'Made on A, seen on B');
    await feedAnnounces(reader, post.id);
  }, 60_000);

  it('serves an avatar stored through one instance through the other', async () => {
    const { a, b, proxy, store } = started();
    const person = await signUpDirect(a);
    const form = new FormData();
    form.append('avatar', new Blob([new Uint8Array(await images.jpeg())], { type: 'image/jpeg' }));
    const uploaded = await request(a.baseUrl, 'PATCH', `/api/users/${person.uid}/profile`, {
      cookie: person.cookie,
      form,
    });
    expect(uploaded.status, uploaded.text).toBe(200);
    const { avatar, avatarThumb } = userDocumentSchema.parse(uploaded.json());
    for (const url of [avatar, avatarThumb]) {
      expect(url?.startsWith(`${store.endpoint}/${store.bucket}/`), url ?? 'null').toBe(true);
      const file = await fetch(url ?? '');
      expect(file.status, url ?? '').toBe(200);
      expect(file.headers.get('content-type')).toBe('image/webp');
      expect((await file.arrayBuffer()).byteLength).toBeGreaterThan(0);
    }

    for (const baseUrl of [b.baseUrl, proxy.baseUrl]) {
      const profile = await request(baseUrl, 'GET', `/api/users/${person.uid}`);
      expect(profile.status, profile.text).toBe(200);
      const document = userDocumentSchema.parse(profile.json());
      expect(document.avatar).toBe(avatar);
      expect(document.avatarThumb).toBe(avatarThumb);
    }
  }, 60_000);

  it('holds per-IP limits through the proxy, whatever X-Forwarded-For a client forges', async () => {
    const { a, b, proxy } = started();
    // Addresses a client might claim: public ones, loopback, a whole chain, garbage.
    const forged = (attempt: number) =>
      [
        `203.0.113.${String(attempt + 1)}`,
        `198.51.100.${String(attempt + 1)}, 192.0.2.${String(attempt + 1)}`,
        `127.0.0.${String(attempt + 2)}`,
        `10.9.8.${String(attempt + 1)}, 127.0.0.1`,
        'unknown',
      ][attempt % 5] ?? '';
    const answeredBy = new Set<string>();
    const statuses: number[] = [];
    const allowed = rateLimits.signUpAccounts.max - signUpsThroughProxy;
    for (let attempt = 0; attempt < allowed + 4; attempt += 1) {
      const response = await request(proxy.baseUrl, 'POST', '/api/auth/sign-up', {
        json: newUserInput(),
        headers: { 'x-forwarded-for': forged(attempt) },
      });
      statuses.push(response.status);
      answeredBy.add(response.headers.get('x-upstream') ?? '');
      if (response.status === 429) {
        expect(errorBodySchema.parse(response.json()).error.code).toBe('rate_limited');
      }
    }
    // The same number of sign-ups as a client that forges nothing, then refusals.
    expect(statuses).toEqual([...Array<number>(allowed).fill(201), ...Array<number>(4).fill(429)]);
    // Round robin spread the attempts over both instances; one count in Redis held them all.
    expect(answeredBy).toEqual(
      new Set([`127.0.0.1:${String(a.port)}`, `127.0.0.1:${String(b.port)}`]),
    );
    for (const instance of [a, b]) {
      const direct = await request(instance.baseUrl, 'POST', '/api/auth/sign-up', {
        json: newUserInput(),
      });
      expect(direct.status, `${instance.name}: ${direct.text}`).toBe(429);
    }
  }, 60_000);

  it('loses no acknowledged write when an instance is killed under load, and its sockets reconnect', async () => {
    const { a, b, proxy } = started();
    const writers = await Promise.all(
      Array.from({ length: 6 }, (_, index) => signUpDirect(index % 2 === 0 ? a : b)),
    );
    // Sockets opened one after another alternate between the instances (round robin).
    const watchers: RealtimeClient[] = [];
    for (let index = 0; index < 4; index += 1) {
      const client = await openThroughProxy();
      await watchFeed(client);
      watchers.push(client);
    }
    const closed = watchers.map(
      (client) =>
        new Promise<RealtimeClient>((resolve) => {
          if (client.socket.readyState === client.socket.CLOSED) resolve(client);
          else client.socket.once('close', () => resolve(client));
        }),
    );

    const acknowledged: string[] = [];
    const refused = new Map<string, number>();
    let acknowledgedWhenKilled: number | undefined;
    const postsPerWriter = 24;
    await Promise.all(
      writers.map(async (writer, index) => {
        for (let count = 0; count < postsPerWriter; count += 1) {
          if (acknowledgedWhenKilled === undefined && acknowledged.length >= 30) {
            acknowledgedWhenKilled = acknowledged.length;
            a.signal('SIGKILL');
          }
          try {
            const response = await request(proxy.baseUrl, 'POST', '/api/posts', {
              cookie: writer.cookie,
              json: { body: `Load from writer ${String(index)}, post ${String(count)}` },
            });
            if (response.status === 201) {
              acknowledged.push(postViewSchema.parse(response.json()).id);
            } else {
              const key = String(response.status);
              refused.set(key, (refused.get(key) ?? 0) + 1);
            }
          } catch (error) {
            const key = error instanceof Error ? error.name : 'error';
            refused.set(key, (refused.get(key) ?? 0) + 1);
          }
        }
      }),
    );
    await a.exited;
    expect(acknowledgedWhenKilled).toBeDefined();
    // Writes went on through the surviving instance.
    expect(acknowledged.length).toBeGreaterThan((acknowledgedWhenKilled ?? 0) + 30);
    // Only the requests the dead instance held may fail, and only as a gateway error.
    for (const status of refused.keys()) expect(['502', '503', '504']).toContain(status);

    for (const id of acknowledged) {
      const read = await request(proxy.baseUrl, 'GET', `/api/posts/${id}`, {
        cookie: writers[0]?.cookie,
      });
      expect(read.status, `post ${id}: ${read.text}`).toBe(200);
      expect(postViewSchema.parse(read.json()).id).toBe(id);
    }

    // The sockets nginx had given to A closed with it; those on B stayed.
    await within(Promise.race(closed), eventTimeoutMs, 'a socket on the killed instance closing');
    // The others had the same moment to notice, if they were on A too.
    await new Promise((resolve) => setTimeout(resolve, 1_000));
    const open = watchers.filter((client) => client.socket.readyState === client.socket.OPEN);
    const lost = watchers.length - open.length;
    expect(lost).toBeGreaterThan(0);
    expect(open.length).toBeGreaterThan(0);

    // Each lost client reconnects through nginx, lands on B, and gets live events again.
    const reconnected: RealtimeClient[] = [];
    for (let index = 0; index < lost; index += 1) {
      const client = await openThroughProxy();
      await watchFeed(client);
      reconnected.push(client);
    }
    expect(await realtimeUpgradeStatus(proxy.baseUrl, { origin })).toBe(101);
    const last = await createPost(proxy.baseUrl, writers[1]?.cookie ?? '', 'After the failover');
    for (const client of [...reconnected, ...open]) await feedAnnounces(client, last.id);
    console.error(
      `Deployment test: instance A killed after ${String(acknowledgedWhenKilled)} acknowledged posts; ${String(acknowledged.length)} of ${String(writers.length * postsPerWriter)} acknowledged, all readable; not acknowledged: ${JSON.stringify(Object.fromEntries(refused))}; ${String(lost)} of ${String(watchers.length)} sockets closed with A and reconnected.`,
    );
  }, 180_000);
});
