import { afterEach, describe, expect, it } from 'vitest';
import { rateLimits } from '../../shared/limits.js';
import { createTestApp, databaseTargets, send, uniqueIp, type TestApp } from '../test/harness.js';

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
