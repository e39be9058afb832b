import type { FastifyPluginAsync } from 'fastify';
import type { Redis } from 'ioredis';
import {
  instanceEndpoints as api,
  type Readiness,
} from '../../../shared/contract/endpoints/instance.js';
import { serve } from '../../http/serve.js';
import type { EventBus } from '../../events/bus.js';
import type { InstanceService } from './instance.service.js';

/** A readiness probe answers within this, whatever a dependency does: a load balancer waits on it. */
const readyCheckTimeoutMs = 2_000;

function withinTimeout(check: Promise<unknown>): Promise<void> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_resolve, reject) => {
    timer = setTimeout(() => reject(new Error('no answer in time')), readyCheckTimeoutMs);
  });
  return Promise.race([check, timeout]).then(
    () => clearTimeout(timer),
    (error: unknown) => {
      clearTimeout(timer);
      throw error;
    },
  );
}

/** Instance facts, legal documents, and the health and readiness probes. */
export const instanceRoutes: FastifyPluginAsync<{
  instance: InstanceService;
  /** Whether the database answers: the same cached probe the error handler asks. */
  databaseReachable: () => Promise<boolean>;
  /** The Redis client of shared counters, when REDIS_URL is set. */
  redis: Redis | undefined;
  bus: EventBus;
}> = (app, { instance, databaseReachable, redis, bus }) => {
  serve(app, api.getHealth, () => ({ status: 'ok' as const }));

  const checks: Record<string, () => Promise<unknown>> = {
    database: async () => {
      if (!(await databaseReachable())) throw new Error('the database does not answer');
    },
    ...(redis
      ? {
          redis: async () => {
            await redis.ping();
            if (!bus.connected()) throw new Error('the event subscription is not connected');
          },
        }
      : {}),
  };

  const lastState = new Map<string, 'ok' | 'unavailable'>();
  // Not ready while a dependency is down, so a load balancer sends people to an instance that has all of
  // them; the instance itself still serves what it can meanwhile (DESIGN.md "Bounded by default").
  serve(app, api.getReadiness, async ({ request, reply }): Promise<Readiness> => {
    const results = await Promise.all(
      Object.entries(checks).map(async ([name, check]) => {
        try {
          await withinTimeout(check());
          return [name, 'ok'] as const;
        } catch (error) {
          // Once per outage, not once per probe: a load balancer asks every few seconds.
          if (lastState.get(name) !== 'unavailable') {
            request.log.warn({ err: error }, `${name} not reachable`);
          }
          return [name, 'unavailable'] as const;
        }
      }),
    );
    for (const [name, state] of results) lastState.set(name, state);
    const ready = results.every(([, state]) => state === 'ok');
    void reply.header('cache-control', 'no-store');
    // The contract's `otherResponses`: the same body, with the status a load balancer acts on.
    if (!ready) void reply.code(503);
    return { status: ready ? 'ok' : 'unavailable', checks: Object.fromEntries(results) };
  });

  serve(app, api.getInstance, () => instance.describe());
  serve(app, api.getLegalDocument, ({ params }) => instance.legalDocument(params.name));
  return Promise.resolve();
};
