import { Redis } from 'ioredis';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { rateLimits } from '../../shared/limits.js';
import { realtimePath } from '../../shared/realtime.js';
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
  type RequestOptions,
  type TestApp,
} from '../test/harness.js';

const [sqlite] = databaseTargets;

describe('RATE_LIMITS', () => {
  let t: TestApp | undefined;
  afterEach(async () => {
    await t?.close();
    t = undefined;
  });

  /** Statuses of one more request than the per-IP API budget allows, all from one address. */
  async function overBudget(app: TestApp['app']): Promise<number[]> {
    const ip = uniqueIp();
    const statuses: number[] = [];
    for (let i = 0; i <= rateLimits.apiPerIp.max; i += 1) {
      statuses.push((await send(app, 'GET', '/api/instance', undefined, { ip })).statusCode);
    }
    return statuses;
  }

  it('are on by default', async () => {
    if (!sqlite) throw new Error('no SQLite target');
    t = await createTestApp(sqlite);
    expect((await overBudget(t.app)).at(-1)).toBe(429);
  });

  it('let every request through when off, for load benchmarks', async () => {
    if (!sqlite) throw new Error('no SQLite target');
    t = await createTestApp(sqlite, { RATE_LIMITS: 'off' });
    expect(new Set(await overBudget(t.app))).toEqual(new Set([200]));
  });
});

describe.each(databaseTargets)('the API budget on $name', (target) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp(target);
  });
  afterAll(async () => {
    await t.close();
  });

  /** Sends `count` requests to `url` and returns their statuses. */
  async function statuses(count: number, url: string, options: RequestOptions) {
    const result: number[] = [];
    for (let i = 0; i < count; i += 1) {
      result.push((await send(t.app, 'GET', url, undefined, options)).statusCode);
    }
    return result;
  }

  it('gives a forged session cookie the anonymous budget, not the signed-in one', async () => {
    const options = { ip: uniqueIp(), cookie: 'x.session_token=fake; hearth.session_token=fake' };
    expect(new Set(await statuses(rateLimits.apiPerIp.max, '/api/instance', options))).toEqual(
      new Set([200]),
    );
    expectError(await send(t.app, 'GET', '/api/instance', undefined, options), 429, 'rate_limited');
  });

  it('counts a signed-in budget per account, wherever the account connects from', async () => {
    const { cookie } = await signUp(t.app);
    // Spread over many addresses: a per-IP count would never reach the limit.
    for (let i = 0; i < rateLimits.apiPerUser.max; i += 1) {
      const response = await send(t.app, 'GET', '/api/instance', undefined, { cookie });
      expect(response.statusCode).toBe(200);
    }
    expectError(
      await send(t.app, 'GET', '/api/instance', undefined, { cookie }),
      429,
      'rate_limited',
    );
    // Another account, and an anonymous reader, from the same kind of addresses are unaffected.
    const other = await signUp(t.app);
    expect(
      (await send(t.app, 'GET', '/api/instance', undefined, { cookie: other.cookie })).statusCode,
    ).toBe(200);
    expect((await send(t.app, 'GET', '/api/instance')).statusCode).toBe(200);
  });

  it('leaves the probes and the realtime endpoint outside the API budget', async () => {
    const ip = uniqueIp();
    await statuses(rateLimits.apiPerIp.max, '/api/instance', { ip });
    expectError(await send(t.app, 'GET', '/api/instance', undefined, { ip }), 429, 'rate_limited');
    expect((await send(t.app, 'GET', '/api/health', undefined, { ip })).statusCode).toBe(200);
    expect((await send(t.app, 'GET', '/api/ready', undefined, { ip })).statusCode).toBe(200);
    expect((await send(t.app, 'GET', realtimePath, undefined, { ip })).statusCode).not.toBe(429);
  });
});

describe('TRUST_PROXY', () => {
  let t: TestApp | undefined;
  afterEach(async () => {
    await t?.close();
    t = undefined;
  });

  it('believes only the hop the proxy added, so a client cannot pick its own address', async () => {
    if (!sqlite) throw new Error('no SQLite target');
    t = await createTestApp(sqlite, { TRUST_PROXY: 'true' });
    const proxy = uniqueIp();
    const real = uniqueIp();
    // Each request forges a different left-most address; the proxy appends the real one.
    for (let i = 0; i < rateLimits.signUpAccounts.max; i += 1) {
      const response = await send(t.app, 'POST', '/api/auth/sign-up', newUserInput(), {
        ip: proxy,
        headers: { 'x-forwarded-for': `${uniqueIp()}, ${real}` },
      });
      expect(response.statusCode).toBe(201);
    }
    expectError(
      await send(t.app, 'POST', '/api/auth/sign-up', newUserInput(), {
        ip: proxy,
        headers: { 'x-forwarded-for': `${uniqueIp()}, ${real}` },
      }),
      429,
      'rate_limited',
    );
    // Another client behind the same proxy has its own budget.
    const response = await send(t.app, 'POST', '/api/auth/sign-up', newUserInput(), {
      ip: proxy,
      headers: { 'x-forwarded-for': uniqueIp() },
    });
    expect(response.statusCode).toBe(201);
  });
});

describe.skipIf(!testRedisUrl)('rate-limit counters in Redis', () => {
  const redisUrl = testRedisUrl ?? '';
  const prefix = uniqueRedisPrefix();
  let t: TestApp | undefined;
  afterAll(async () => {
    await t?.close();
    await deleteRedisKeys(redisUrl, prefix);
  });

  it('are named by rule and key only, with nothing undefined in them', async () => {
    if (!sqlite) throw new Error('no SQLite target');
    t = await createTestApp(sqlite, { REDIS_URL: redisUrl, REDIS_PREFIX: prefix });
    const ip = uniqueIp();
    const { cookie, user } = await signUp(t.app);
    await send(t.app, 'GET', '/api/instance', undefined, { ip });
    await send(t.app, 'GET', '/api/instance', undefined, { cookie });
    await send(
      t.app,
      'POST',
      '/api/auth/sign-in',
      { identifier: 'nobody_here', password: 'wrong password' },
      { ip },
    );
    const redis = new Redis(redisUrl);
    try {
      const keys = await redis.keys(`${prefix}*`);
      expect(keys.filter((key) => key.includes('undefined'))).toEqual([]);
      expect(keys).toEqual(
        expect.arrayContaining([
          `${prefix}rl:api:ip:${ip}`,
          `${prefix}rl:api-session:uid:${user.uid}`,
          `${prefix}rl:sign-in-ip:ip:${ip}`,
          `${prefix}rl:sign-in-account-ip:name:nobody_here:ip:${ip}`,
        ]),
      );
    } finally {
      redis.disconnect();
    }
  });
});
