import rateLimit from '@fastify/rate-limit';
import type { FastifyInstance, FastifyRequest, preHandlerAsyncHookHandler } from 'fastify';
import fp from 'fastify-plugin';
import type { Redis } from 'ioredis';
import { rateLimits } from '../../shared/limits.js';
import { RateLimited } from '../errors.js';

export interface RateLimitRule {
  /** Names the counter, so two rules on one route never share one. */
  name: string;
  max: number;
  windowMs: number;
  /** What is counted: by default the client's IP. */
  key?: (request: FastifyRequest) => string | Promise<string>;
}

/** Counts per signed-in account wherever it connects from, and per IP for anonymous requests. */
export async function perAccount(request: FastifyRequest): Promise<string> {
  return (await request.viewer())?.uid ?? request.ip;
}

declare module 'fastify' {
  interface FastifyInstance {
    /** A preHandler enforcing one rule; stack several on a route (per IP and per account). */
    limit(rule: RateLimitRule): preHandlerAsyncHookHandler;
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
 * configured, so every instance shares them; in memory otherwise.
 */
export const rateLimitPlugin = fp(
  async (app: FastifyInstance, { redis, prefix, enabled }: RateLimitOptions) => {
    if (!enabled) {
      const allow: preHandlerAsyncHookHandler = () => Promise.resolve();
      app.decorate('limit', () => allow);
      return;
    }
    await app.register(rateLimit, {
      global: false,
      ...(redis ? { redis, nameSpace: `${prefix}rl:` } : {}),
    });

    const limiter = (rule: RateLimitRule) => {
      const keyOf = rule.key ?? ((request: FastifyRequest) => request.ip);
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

    // DESIGN.md: an overall API budget per IP, larger for browsers that carry a session.
    const anonymous = limiter({ name: 'api', ...rateLimits.apiPerIp });
    const signedIn = limiter({ name: 'api-session', ...rateLimits.apiPerUser });
    app.addHook('onRequest', async (request) => {
      if (!request.url.startsWith('/api/') || request.url.startsWith('/api/health')) return;
      const hasSession = request.headers.cookie?.includes('.session_token=') ?? false;
      await (hasSession ? signedIn : anonymous)(request);
    });
  },
  { name: 'rate-limit' },
);
