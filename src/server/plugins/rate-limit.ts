import rateLimit, { normalizeIP, type FastifyRateLimitStore } from '@fastify/rate-limit';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import type { Redis, Result } from 'ioredis';
import type { Logger } from 'pino';
import { endpointList } from '../../shared/contract/index.js';
import { rateLimits } from '../../shared/limits.js';
import { realtimePath } from '../../shared/realtime.js';
import { RateLimited } from '../errors.js';

export interface RateLimitRule {
  /** Names the counter, so two rules on one route never share one. */
  name: string;
  max: number;
  windowMs: number;
  /** What is counted: by default the client's IP. */
  key?: (request: FastifyRequest) => string | Promise<string>;
}

/**
 * The client's address as one counter: IPv6 addresses count per /64, the block one subscriber is given, so
 * walking through one's own addresses does not reset a limit.
 */
export function clientAddress(request: FastifyRequest): string {
  return normalizeIP(request.ip, 64);
}

/** Counts per signed-in account (a validated session) wherever it connects from, per IP for anonymous ones. */
export async function perAccount(request: FastifyRequest): Promise<string> {
  const viewer = await request.viewer();
  return viewer ? `uid:${viewer.uid}` : `ip:${clientAddress(request)}`;
}

/** A check run before a handler: it throws to refuse the request. */
export type RequestCheck = (request: FastifyRequest) => Promise<void>;

/**
 * A rule that counts only what succeeded (accounts created, not attempts): `check` refuses once the count
 * is reached, without counting; the route calls `count` when the thing it limits was done.
 */
export interface SuccessLimit {
  check: RequestCheck;
  count(request: FastifyRequest): Promise<void>;
}

declare module 'fastify' {
  interface FastifyInstance {
    /** A check enforcing one rule; stack several on a route (per IP and per account). */
    limit(rule: RateLimitRule): RequestCheck;
    /** A rule counted only on success; `refusal` makes the 429 its error. */
    successLimit(
      rule: RateLimitRule & { refusal: (retryAfterSeconds: number) => Error },
    ): SuccessLimit;
  }
}

declare module 'ioredis' {
  interface RedisCommander<Context> {
    /** Counts one hit on a fixed window; answers the count and the window's milliseconds left. */
    hearthRateLimit(key: string, windowMs: number): Result<[number, number], Context>;
  }
}

/** Counters kept in one process when Redis is not configured or not answering; past it the oldest go. */
export const localCounterCapacity = 50_000;

/** After a Redis failure, counting stays in the process this long before Redis is tried again. */
const redisRetryDelayMs = 1_000;

/** Paths outside the overall API budget: probes, and realtime, which has its own connection limit. */
const unbudgetedPaths = new Set<string>([
  ...endpointList.filter((endpoint) => endpoint.budget === false).map((endpoint) => endpoint.path),
  realtimePath,
]);

// INCR then a window set on the first hit (or on a key that lost its expiry), in one atomic step.
const windowScript = `
local current = redis.call('INCR', KEYS[1])
local ttl = redis.call('PTTL', KEYS[1])
if current == 1 or ttl < 0 then
  redis.call('PEXPIRE', KEYS[1], ARGV[1])
  ttl = tonumber(ARGV[1])
end
return {current, ttl}
`;

interface Count {
  current: number;
  ttl: number;
}

/** Fixed-window counters in this process, bounded in number. */
class LocalCounters {
  readonly #windows = new Map<string, { count: number; resetAt: number }>();

  /** The count so far, without counting. */
  peek(key: string): Count {
    const window = this.#windows.get(key);
    const now = Date.now();
    return window && window.resetAt > now
      ? { current: window.count, ttl: window.resetAt - now }
      : { current: 0, ttl: 0 };
  }

  hit(key: string, windowMs: number): Count {
    const now = Date.now();
    let window = this.#windows.get(key);
    if (!window || window.resetAt <= now) {
      // Re-inserted, so the map stays ordered by window start and the oldest is evicted first.
      this.#windows.delete(key);
      window = { count: 0, resetAt: now + windowMs };
      while (this.#windows.size >= localCounterCapacity) {
        const oldest = this.#windows.keys().next();
        if (oldest.done) break;
        this.#windows.delete(oldest.value);
      }
      this.#windows.set(key, window);
    }
    window.count += 1;
    return { current: window.count, ttl: window.resetAt - now };
  }
}

/**
 * Counters shared through Redis while it answers, and kept in this process while it does not: a Redis
 * outage relaxes limits to one instance's view for that time, and never fails or holds a request.
 */
class FailoverCounters {
  readonly #local = new LocalCounters();
  #retryAt = 0;
  #failing = false;

  constructor(
    private readonly redis: Redis | undefined,
    private readonly prefix: string,
    private readonly log: Logger,
  ) {
    redis?.defineCommand('hearthRateLimit', { numberOfKeys: 1, lua: windowScript });
  }

  async hit(key: string, windowMs: number): Promise<Count> {
    const redis = this.redis;
    if (!redis || redis.status !== 'ready' || Date.now() < this.#retryAt) {
      if (redis) this.#fail();
      return this.#local.hit(key, windowMs);
    }
    try {
      const [current, ttl] = await redis.hearthRateLimit(`${this.prefix}${key}`, windowMs);
      if (this.#failing) {
        this.#failing = false;
        this.log.info('redis answers again: rate limits are shared by every instance');
      }
      return { current, ttl };
    } catch (error) {
      this.#retryAt = Date.now() + redisRetryDelayMs;
      this.#fail(error);
      return this.#local.hit(key, windowMs);
    }
  }

  /** The count so far, without counting: Redis's while it answers, this process's otherwise. */
  async peek(key: string): Promise<Count> {
    const redis = this.redis;
    if (!redis || redis.status !== 'ready' || Date.now() < this.#retryAt) {
      return this.#local.peek(key);
    }
    try {
      const [current, ttl] = await Promise.all([
        redis.get(`${this.prefix}${key}`),
        redis.pttl(`${this.prefix}${key}`),
      ]);
      return { current: Number(current ?? 0), ttl: Math.max(0, ttl) };
    } catch (error) {
      this.#retryAt = Date.now() + redisRetryDelayMs;
      this.#fail(error);
      return this.#local.peek(key);
    }
  }

  #fail(error?: unknown): void {
    if (this.#failing) return;
    this.#failing = true;
    this.log.warn({ err: error }, 'redis does not answer: rate limits are counted in this process');
  }
}

export interface RateLimitOptions {
  redis: Redis | undefined;
  prefix: string;
  /** False with RATE_LIMITS=off (load benchmarks only): every rule lets every request through. */
  enabled: boolean;
}

/**
 * Rate limits answered with 429, Retry-After and the one error shape. Counters live in Redis when it is
 * configured and answering, so every instance shares them; in memory otherwise.
 */
export const rateLimitPlugin = fp(
  async (app: FastifyInstance, { redis, prefix, enabled }: RateLimitOptions) => {
    if (!enabled) {
      const allow: RequestCheck = () => Promise.resolve();
      app.decorate('limit', () => allow);
      app.decorate('successLimit', () => ({ check: allow, count: allow }));
      return;
    }
    const counters = new FailoverCounters(redis, `${prefix}rl:`, app.log as unknown as Logger);
    // Keys are built whole by the rules below, so every limiter shares this one store (the library's own
    // Redis store would insert the route of the rule, undefined for limiters made outside a route).
    class Store implements FastifyRateLimitStore {
      incr(
        key: string,
        callback: (error: Error | null, result?: Count) => void,
        timeWindow: number,
      ): void {
        counters.hit(key, timeWindow).then(
          (count) => callback(null, count),
          (error: unknown) => callback(error instanceof Error ? error : new Error(String(error))),
        );
      }
      child(): FastifyRateLimitStore {
        return this;
      }
    }
    await app.register(rateLimit, { global: false, store: Store });

    const limiter = (rule: RateLimitRule): RequestCheck => {
      const keyOf = rule.key ?? ((request: FastifyRequest) => `ip:${clientAddress(request)}`);
      const check = app.createRateLimit({
        max: rule.max,
        timeWindow: rule.windowMs,
        keyGenerator: async (request) => `${rule.name}:${await keyOf(request)}`,
      });
      return async (request: FastifyRequest) => {
        const result = await check(request);
        if (!result.isAllowed && result.isExceeded) throw new RateLimited(result.ttlInSeconds);
      };
    };
    app.decorate('limit', limiter);
    app.decorate(
      'successLimit',
      (rule: RateLimitRule & { refusal: (retryAfterSeconds: number) => Error }): SuccessLimit => {
        const keyOf = rule.key ?? ((request: FastifyRequest) => `ip:${clientAddress(request)}`);
        const counterKey = async (request: FastifyRequest) =>
          `${rule.name}:${await keyOf(request)}`;
        return {
          check: async (request) => {
            const { current, ttl } = await counters.peek(await counterKey(request));
            if (current >= rule.max) throw rule.refusal(Math.max(1, Math.ceil(ttl / 1000)));
          },
          count: async (request) => {
            await counters.hit(await counterKey(request), rule.windowMs);
          },
        };
      },
    );

    // DESIGN.md: an overall API budget per IP, larger for a signed-in account. Only a session the auth
    // library validated earns the larger one, and it is the account's, wherever it connects from.
    const anonymous = limiter({ name: 'api', ...rateLimits.apiPerIp });
    const signedIn = limiter({ name: 'api-session', ...rateLimits.apiPerUser, key: perAccount });
    app.addHook('onRequest', async (request) => {
      const path = request.url.split('?', 1)[0] ?? request.url;
      if (!path.startsWith('/api/') || unbudgetedPaths.has(path)) return;
      await ((await request.viewer()) ? signedIn : anonymous)(request);
    });
  },
  { name: 'rate-limit' },
);
