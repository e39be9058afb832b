import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { rateLimits } from '../../shared/limits.js';
import { loadConfig } from '../config.js';
import {
  createTestApp,
  databaseTargets,
  expectError,
  newUserInput,
  send,
  uniqueIp,
  type TestApp,
} from '../test/harness.js';

describe('sign-up limit settings', () => {
  it('default to generous attempts and a few accounts a day, and take the operator’s numbers', () => {
    expect(loadConfig({ NODE_ENV: 'test', DATA_DIR: '/tmp/x' }).signUpLimits).toEqual({
      attemptsPerIp: rateLimits.signUp.max,
      accountsPerIp: rateLimits.signUpAccounts.max,
    });
    expect(
      loadConfig({
        NODE_ENV: 'test',
        DATA_DIR: '/tmp/x',
        SIGNUP_ATTEMPTS_PER_IP: '12',
        SIGNUP_ACCOUNTS_PER_IP: '5',
      }).signUpLimits,
    ).toEqual({ attemptsPerIp: 12, accountsPerIp: 5 });
    expect(() =>
      loadConfig({ NODE_ENV: 'test', DATA_DIR: '/tmp/x', SIGNUP_ACCOUNTS_PER_IP: '0' }),
    ).toThrow(/SIGNUP_ACCOUNTS_PER_IP/);
  });
});

describe.each(databaseTargets)('sign-up limits per address on $name', (target) => {
  let t: TestApp;

  beforeAll(async () => {
    t = await createTestApp(target, { SIGNUP_ATTEMPTS_PER_IP: '8', SIGNUP_ACCOUNTS_PER_IP: '2' });
  });
  afterAll(async () => {
    await t.close();
  });

  const signUpFrom = (ip: string, input = newUserInput()) =>
    send(t.app, 'POST', '/api/auth/sign-up', input, { ip });

  it('lets a household with typos through: refused attempts do not count as accounts', async () => {
    const ip = uniqueIp();
    // Five mistakes (a weak password, a taken username…) from one network.
    for (let attempt = 0; attempt < 5; attempt += 1) {
      const response = await signUpFrom(ip, newUserInput({ password: 'short' }));
      expect(response.statusCode, response.body).toBe(400);
    }
    expect((await signUpFrom(ip)).statusCode).toBe(201);
    expect((await signUpFrom(ip)).statusCode).toBe(201);
  });

  it('refuses the next account once the address created its allowance, explaining why', async () => {
    const ip = uniqueIp();
    expect((await signUpFrom(ip)).statusCode).toBe(201);
    expect((await signUpFrom(ip)).statusCode).toBe(201);
    const input = newUserInput();
    const refused = await signUpFrom(ip, input);
    const error = expectError(refused, 429, 'rate_limited');
    expect(error.message).toMatch(/Too many accounts were created from your network today/);
    expect(Number(refused.headers['retry-after'])).toBeGreaterThan(60 * 60);
    const taken = await send(t.app, 'GET', `/api/users/by-username/${input.username}`);
    expect(taken.statusCode).toBe(404);
    // Another network is unaffected.
    expect((await signUpFrom(uniqueIp())).statusCode).toBe(201);
  });

  it('still caps attempts per address, refused ones included', async () => {
    const ip = uniqueIp();
    for (let attempt = 0; attempt < 8; attempt += 1) {
      expect((await signUpFrom(ip, newUserInput({ password: 'short' }))).statusCode).toBe(400);
    }
    const error = expectError(await signUpFrom(ip), 429, 'rate_limited');
    expect(error.message).toMatch(/Too many attempts/);
  });
});
