import type { LightMyRequestResponse } from 'fastify';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { rateLimits } from '../../../shared/limits.js';
import { formatUtc } from '../../mail/security-mail.js';
import {
  cookieFrom,
  createTestApp,
  databaseTargets,
  expectError,
  newUserInput,
  openAppDatabase,
  send,
  signUp,
  type TestApp,
  uniqueIp,
} from '../../test/harness.js';

/** Asserts the one JSON error shape with `status` and `code`, and a message on `field` when given. */

function expectRateLimited(response: LightMyRequestResponse) {
  expectError(response, 429, 'rate_limited');
  const retryAfter = String(response.headers['retry-after']);
  expect(retryAfter).toMatch(/^\d+$/);
  expect(Number(retryAfter)).toBeGreaterThan(0);
}

const sessionCookie = (response: LightMyRequestResponse) =>
  response.cookies.find((cookie) => cookie.name === 'hearth.session_token');

/** The token of the last reset link mailed to `email`. */
function mailedToken(t: TestApp, email: string): string {
  const link = t.mail.lastTo(email)?.link;
  expect(link).toMatch(/^http:\/\/hearth\.test\/reset-password\?token=/);
  const token = new URL(link ?? '').searchParams.get('token');
  expect(token).toBeTruthy();
  return token ?? '';
}

async function sessionUser(t: TestApp, cookie: string) {
  const response = await send(t.app, 'GET', '/api/auth/session', undefined, { cookie });
  expect(response.statusCode).toBe(200);
  return response.json<{ user: { uid: string; active: boolean; email: string } | null }>().user;
}

describe.each(databaseTargets)('accounts on $name', (target) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp(target);
  });
  afterAll(async () => {
    await t.close();
  });

  const usernameIsFree = async (username: string) =>
    (await send(t.app, 'GET', `/api/users/by-username/${username}`)).statusCode === 404;

  it('signs up, sets an HttpOnly SameSite=Lax session cookie and answers the session', async () => {
    const { cookie, user, input } = await signUp(t.app, { username: 'Mixed_Case_1' });
    expect(user.username).toBe('mixed_case_1');
    const session = await send(t.app, 'GET', '/api/auth/session', undefined, { cookie });
    expect(session.statusCode).toBe(200);
    expect(session.json()).toMatchObject({ user: { uid: user.uid, email: input.email } });
  });

  describe('sign-up', () => {
    it('answers 201 with the account and a session cookie that is HttpOnly, Lax, Path=/ and not Secure over http', async () => {
      const input = newUserInput({ email: 'Ada.Lovelace+X@Example.TEST' });
      const response = await send(t.app, 'POST', '/api/auth/sign-up', input);
      expect(response.statusCode).toBe(201);
      expect(response.headers['cache-control']).toBe('no-store');
      const { user } = response.json<{ user: Record<string, unknown> }>();
      expect(user).toMatchObject({
        username: input.username,
        email: 'ada.lovelace+x@example.test',
        firstName: 'Ada',
        lastName: 'Lovelace',
        role: 'user',
        active: true,
      });
      const cookie = sessionCookie(response);
      expect(cookie).toMatchObject({ httpOnly: true, sameSite: 'Lax', path: '/' });
      expect(cookie?.secure).toBeFalsy();
      expect(cookie?.domain).toBeUndefined();
      expect(await sessionUser(t, cookieFrom(response))).toMatchObject({ uid: user.uid });
    });

    it('never shows the email in the public user document', async () => {
      const { user, input } = await signUp(t.app);
      for (const url of [`/api/users/${user.uid}`, `/api/users/by-username/${user.username}`]) {
        const response = await send(t.app, 'GET', url);
        expect(response.statusCode).toBe(200);
        expect(response.json()).toMatchObject({ uid: user.uid });
        expect(response.json()).not.toHaveProperty('email');
        expect(response.body).not.toContain(input.email);
      }
    });

    const fields = ['email', 'username', 'password', 'firstName', 'lastName'] as const;

    it.each(fields)('refuses a sign-up without %s, naming the field', async (field) => {
      const input: Record<string, unknown> = Object.fromEntries(
        Object.entries(newUserInput()).filter(([name]) => name !== field),
      );
      expectError(
        await send(t.app, 'POST', '/api/auth/sign-up', input),
        400,
        'validation_failed',
        field,
      );
      if (typeof input.username === 'string')
        expect(await usernameIsFree(input.username)).toBe(true);
    });

    it.each([
      ['email', 42],
      ['email', true],
      ['username', ['ada_lovelace']],
      ['username', 12345],
      ['password', null],
      ['password', 12345678],
      ['firstName', 7],
      ['lastName', { first: 'Ada' }],
    ] as const)('refuses %s of the wrong type (%j)', async (field, value) => {
      const input = { ...newUserInput(), [field]: value };
      expectError(
        await send(t.app, 'POST', '/api/auth/sign-up', input),
        400,
        'validation_failed',
        field,
      );
    });

    it.each([
      ['email', `${'a'.repeat(250)}@example.test`],
      ['username', 'a'.repeat(31)],
      ['password', 'p'.repeat(129)],
      ['firstName', 'A'.repeat(51)],
      ['lastName', 'L'.repeat(51)],
    ] as const)('refuses an over-long %s', async (field, value) => {
      const input = { ...newUserInput(), [field]: value };
      expectError(
        await send(t.app, 'POST', '/api/auth/sign-up', input),
        400,
        'validation_failed',
        field,
      );
    });

    it.each([
      ['Ada\u0000', /NUL/],
      ['Ada\nLovelace', /control characters/],
      ['Ada\u001b[2J', /control characters/],
      ['Ada\u0085', /control characters/],
    ])('refuses control characters in a name (%j)', async (firstName, reason) => {
      const input = newUserInput({ firstName });
      const error = expectError(
        await send(t.app, 'POST', '/api/auth/sign-up', input),
        400,
        'validation_failed',
        'firstName',
      );
      expect(error.fields?.firstName).toMatch(reason);
      expect(await usernameIsFree(input.username)).toBe(true);
    });

    it.each(['admin', 'feed', 'login', 'Settings', 'API'])(
      'refuses the reserved username %s and says why',
      async (username) => {
        const error = expectError(
          await send(t.app, 'POST', '/api/auth/sign-up', newUserInput({ username })),
          400,
          'validation_failed',
          'username',
        );
        expect(error.fields?.username).toMatch(/reserved/);
      },
    );

    it.each(['ab', 'ada lovelace', 'ada-lovelace', 'zoë_1', 'ada!', 'ada.l', '😀_ada'])(
      'refuses the username %j',
      async (username) => {
        expectError(
          await send(t.app, 'POST', '/api/auth/sign-up', newUserInput({ username })),
          400,
          'validation_failed',
          'username',
        );
      },
    );

    it('refuses a malformed email address', async () => {
      for (const email of ['ada', 'ada@', 'ada@@example.test', '']) {
        expectError(
          await send(t.app, 'POST', '/api/auth/sign-up', newUserInput({ email })),
          400,
          'validation_failed',
          'email',
        );
      }
    });

    it.each(['password123', 'iloveyou1', 'PASSWORD123'])(
      'refuses the common password %s',
      async (password) => {
        const input = newUserInput({ password });
        const error = expectError(
          await send(t.app, 'POST', '/api/auth/sign-up', input),
          400,
          'validation_failed',
          'password',
        );
        expect(error.fields?.password).toMatch(/common/);
        expect(await usernameIsFree(input.username)).toBe(true);
      },
    );

    it('refuses the username as the password', async () => {
      const input = newUserInput();
      expectError(
        await send(t.app, 'POST', '/api/auth/sign-up', { ...input, password: input.username }),
        400,
        'validation_failed',
        'password',
      );
    });

    it('reports malformed JSON as a 400', async () => {
      const response = await send(t.app, 'POST', '/api/auth/sign-up', '{"email": "ada@', {
        headers: { 'content-type': 'application/json' },
      });
      expectError(response, 400, 'bad_request');
    });

    it.each(['null', '[]', '"ada"', '42'])('reports the JSON body %s as a 400', async (body) => {
      const response = await send(t.app, 'POST', '/api/auth/sign-up', body, {
        headers: { 'content-type': 'application/json' },
      });
      expectError(response, 400, 'validation_failed');
    });

    it('reports an empty body as a 400', async () => {
      const response = await send(t.app, 'POST', '/api/auth/sign-up', '', {
        headers: { 'content-type': 'application/json' },
      });
      expectError(response, 400, 'bad_request');
    });

    it('refuses a body over 64 KB with 413', async () => {
      const input = { ...newUserInput(), firstName: 'x'.repeat(70 * 1024) };
      expectError(await send(t.app, 'POST', '/api/auth/sign-up', input), 413, 'payload_too_large');
      expect(await usernameIsFree(input.username)).toBe(true);
    });

    it.each(['text/plain', 'application/x-www-form-urlencoded', 'application/xml'])(
      'refuses a %s body with 415',
      async (contentType) => {
        const input = newUserInput();
        const response = await send(t.app, 'POST', '/api/auth/sign-up', JSON.stringify(input), {
          headers: { 'content-type': contentType },
        });
        expectError(response, 415, 'unsupported_media_type');
        expect(await usernameIsFree(input.username)).toBe(true);
      },
    );

    it('refuses a duplicate email in any case with 409 on the email field', async () => {
      const first = await signUp(t.app);
      const second = newUserInput({ email: first.input.email.toUpperCase() });
      const error = expectError(
        await send(t.app, 'POST', '/api/auth/sign-up', second),
        409,
        'conflict',
        'email',
      );
      expect(error.fields).not.toHaveProperty('username');
      // Nothing half-written: the name of the refused sign-up is still free and can be taken.
      expect(await usernameIsFree(second.username)).toBe(true);
      await signUp(t.app, { username: second.username });
    });

    it('refuses a duplicate username in any case with 409 on the username field', async () => {
      const first = await signUp(t.app);
      const second = newUserInput({ username: first.user.username.toUpperCase() });
      const error = expectError(
        await send(t.app, 'POST', '/api/auth/sign-up', second),
        409,
        'conflict',
        'username',
      );
      expect(error.fields).not.toHaveProperty('email');
      // The refused address was not taken either.
      await signUp(t.app, { email: second.email });
    });

    it('names both fields when both are taken', async () => {
      const first = await signUp(t.app);
      const error = expectError(
        await send(t.app, 'POST', '/api/auth/sign-up', {
          ...newUserInput(),
          email: first.input.email,
          username: first.input.username,
        }),
        409,
        'conflict',
      );
      expect(Object.keys(error.fields ?? {}).sort()).toEqual(['email', 'username']);
    });

    it('leaves nothing half-written: after refused sign-ups the same details still sign up', async () => {
      const input = newUserInput();
      expectError(
        await send(t.app, 'POST', '/api/auth/sign-up', { ...input, password: 'password123' }),
        400,
        'validation_failed',
        'password',
      );
      expectError(
        await send(t.app, 'POST', '/api/auth/sign-up', { ...input, lastName: 'L'.repeat(51) }),
        400,
        'validation_failed',
        'lastName',
      );
      expectError(
        await send(t.app, 'POST', '/api/auth/sign-up', input, { origin: null }),
        403,
        'origin_mismatch',
      );
      expect(await usernameIsFree(input.username)).toBe(true);
      const response = await send(t.app, 'POST', '/api/auth/sign-up', input);
      expect(response.statusCode).toBe(201);
      const signIn = await send(t.app, 'POST', '/api/auth/sign-in', {
        identifier: input.email,
        password: input.password,
      });
      expect(signIn.statusCode).toBe(200);
    });
  });

  describe('Origin check', () => {
    const stateChanging = [
      ['/api/auth/sign-up', () => newUserInput()],
      ['/api/auth/sign-in', () => ({ identifier: 'someone', password: 'some password' })],
      ['/api/auth/sign-out', () => ({})],
      ['/api/auth/request-password-reset', () => ({ email: 'someone@example.test' })],
      ['/api/auth/reset-password', () => ({ token: 'abc', newPassword: 'copper kettle sings' })],
    ] as const;

    it.each(stateChanging)('refuses POST %s without an Origin header', async (url, body) => {
      const error = expectError(
        await send(t.app, 'POST', url, body(), { origin: null }),
        403,
        'origin_mismatch',
      );
      expect(error.message).toMatch(/Origin/);
    });

    it.each([
      'http://evil.test',
      'http://hearth.test.evil.test',
      'https://hearth.test',
      'http://hearth.test:8080',
      'null',
    ])('refuses a sign-up from the origin %s', async (origin) => {
      const input = newUserInput();
      expectError(
        await send(t.app, 'POST', '/api/auth/sign-up', input, { origin }),
        403,
        'origin_mismatch',
      );
      expect(await usernameIsFree(input.username)).toBe(true);
    });

    it('refuses a signed-in POST from another site', async () => {
      const { cookie } = await signUp(t.app);
      expectError(
        await send(t.app, 'POST', '/api/auth/sign-out', {}, { cookie, origin: 'http://evil.test' }),
        403,
        'origin_mismatch',
      );
      expect(await sessionUser(t, cookie)).not.toBeNull();
    });

    it('lets reads through without an Origin header', async () => {
      const response = await send(t.app, 'GET', '/api/auth/session', undefined, { origin: null });
      expect(response.statusCode).toBe(200);
      expect(response.json()).toEqual({ user: null });
    });
  });

  describe('sign-in', () => {
    it('signs in by email and by username, whatever their case', async () => {
      const { input, user } = await signUp(t.app);
      for (const identifier of [
        input.email,
        input.email.toUpperCase(),
        input.username,
        ` ${input.username.toUpperCase()} `,
      ]) {
        const response = await send(t.app, 'POST', '/api/auth/sign-in', {
          identifier,
          password: input.password,
        });
        expect(response.statusCode, identifier).toBe(200);
        expect(response.json()).toMatchObject({ user: { uid: user.uid, email: input.email } });
        expect(sessionCookie(response)).toMatchObject({ httpOnly: true, sameSite: 'Lax' });
        expect(await sessionUser(t, cookieFrom(response))).toMatchObject({ uid: user.uid });
      }
    });

    it('gives the same 401 for a wrong password and for an unknown user', async () => {
      const { input } = await signUp(t.app);
      const attempts = [
        { identifier: input.username, password: 'not the password' },
        { identifier: input.email, password: 'not the password' },
        { identifier: `nobody_${input.username}`, password: input.password },
        { identifier: `nobody.${input.email}`, password: input.password },
        { identifier: input.username, password: input.password.toUpperCase() },
      ];
      const bodies = new Set<string>();
      for (const attempt of attempts) {
        const response = await send(t.app, 'POST', '/api/auth/sign-in', attempt);
        expectError(response, 401, 'invalid_credentials');
        expect(response.cookies).toEqual([]);
        bodies.add(response.body);
      }
      expect(bodies.size).toBe(1);
    });

    it('refuses an identifier holding a NUL byte with a 400 on that field, never a 5xx', async () => {
      for (const identifier of ['ada\u0000lovelace', 'ada\u0000@example.test']) {
        expectError(
          await send(t.app, 'POST', '/api/auth/sign-in', {
            identifier,
            password: 'whatever it is',
          }),
          400,
          'validation_failed',
          'identifier',
        );
      }
    });

    it('validates the sign-in body', async () => {
      expectError(
        await send(t.app, 'POST', '/api/auth/sign-in', { identifier: '', password: 'x' }),
        400,
        'validation_failed',
        'identifier',
      );
      expectError(
        await send(t.app, 'POST', '/api/auth/sign-in', { identifier: 'ada', password: 7 }),
        400,
        'validation_failed',
        'password',
      );
      expectError(
        await send(t.app, 'POST', '/api/auth/sign-in', {
          identifier: 'ada',
          password: 'p'.repeat(129),
        }),
        400,
        'validation_failed',
        'password',
      );
    });
  });

  // Every sign-in attempt hashes a password, on purpose (timing): allow for a busy machine.
  describe('rate limits', { timeout: 60_000 }, () => {
    it(`answers the ${rateLimits.signIn.max + 1}th sign-in from one IP with 429 and Retry-After`, async () => {
      const ip = uniqueIp();
      const tag = newUserInput().username;
      for (let attempt = 0; attempt < rateLimits.signIn.max; attempt += 1) {
        // A different account each time, so only the per-IP counter can trip.
        const response = await send(
          t.app,
          'POST',
          '/api/auth/sign-in',
          { identifier: `${tag}_${attempt}`, password: 'wrong password' },
          { ip },
        );
        expectError(response, 401, 'invalid_credentials');
      }
      const limited = await send(
        t.app,
        'POST',
        '/api/auth/sign-in',
        { identifier: `${tag}_last`, password: 'wrong password' },
        { ip },
      );
      expectRateLimited(limited);
      expect(Number(limited.headers['retry-after'])).toBeLessThanOrEqual(
        rateLimits.signIn.windowMs / 1000,
      );
      // Other clients are not affected.
      expectError(
        await send(t.app, 'POST', '/api/auth/sign-in', {
          identifier: `${tag}_other`,
          password: 'wrong password',
        }),
        401,
        'invalid_credentials',
      );
    });

    /**
     * Signs in with a wrong password `times` times, naming the account by address, name and upper-cased
     * address in turn, each from an address of its own as a distributed guesser would; every attempt is
     * refused as a wrong password.
     */
    async function guessWrong(account: { email: string; username: string }, times: number) {
      const names = [account.email, account.username, account.email.toUpperCase()];
      for (let attempt = 0; attempt < times; attempt += 1) {
        const response = await send(t.app, 'POST', '/api/auth/sign-in', {
          identifier: names[attempt % names.length],
          password: 'wrong password',
        });
        expectError(response, 401, 'invalid_credentials');
      }
    }

    it('does not lock the owner out when others guess from other addresses', async () => {
      const { input } = await signUp(t.app);
      await guessWrong(input, rateLimits.signIn.max);
      const owner = await send(t.app, 'POST', '/api/auth/sign-in', {
        identifier: input.username,
        password: input.password,
      });
      expect(owner.statusCode, owner.body).toBe(200);
    });

    it('limits guesses at one account from one address, and only there', async () => {
      const { input } = await signUp(t.app);
      const guesser = uniqueIp();
      for (let attempt = 0; attempt < rateLimits.signInPerAccountAddress.max; attempt += 1) {
        const response = await send(
          t.app,
          'POST',
          '/api/auth/sign-in',
          { identifier: attempt % 2 ? input.email : input.username, password: 'wrong password' },
          { ip: guesser },
        );
        expectError(response, 401, 'invalid_credentials');
      }
      const limited = await send(
        t.app,
        'POST',
        '/api/auth/sign-in',
        { identifier: input.username, password: input.password },
        { ip: guesser },
      );
      expectRateLimited(limited);
      expect(limited.cookies).toEqual([]);
      // The same address may still sign in to another account, and the owner from their own.
      const other = await signUp(t.app);
      const elsewhere = await send(
        t.app,
        'POST',
        '/api/auth/sign-in',
        { identifier: other.input.username, password: other.input.password },
        { ip: guesser },
      );
      expect(elsewhere.statusCode).toBe(200);
      const owner = await send(t.app, 'POST', '/api/auth/sign-in', {
        identifier: input.email,
        password: input.password,
      });
      expect(owner.statusCode).toBe(200);
    });

    // A hundred password checks, each a deliberately slow hash: near a minute on a loaded 2-core machine.
    it(
      'brakes guessing at one account spread over many addresses',
      { timeout: 240_000 },
      async () => {
        const { input } = await signUp(t.app);
        await guessWrong(input, rateLimits.signInPerAccount.max);
        const limited = await send(t.app, 'POST', '/api/auth/sign-in', {
          identifier: input.username,
          password: input.password,
        });
        expectRateLimited(limited);
        expect(limited.cookies).toEqual([]);
        // Another account signs in as usual.
        const other = await signUp(t.app);
        const response = await send(t.app, 'POST', '/api/auth/sign-in', {
          identifier: other.input.username,
          password: other.input.password,
        });
        expect(response.statusCode).toBe(200);
      },
    );

    it(`answers the ${rateLimits.signUpAccounts.max + 1}th account from one IP with 429, writing nothing`, async () => {
      const ip = uniqueIp();
      for (let attempt = 0; attempt < rateLimits.signUpAccounts.max; attempt += 1) {
        const response = await send(t.app, 'POST', '/api/auth/sign-up', newUserInput(), { ip });
        expect(response.statusCode).toBe(201);
      }
      const input = newUserInput();
      expectRateLimited(await send(t.app, 'POST', '/api/auth/sign-up', input, { ip }));
      expect(await usernameIsFree(input.username)).toBe(true);
    });

    it(`answers the ${rateLimits.passwordReset.max + 1}th reset request for one address with 429`, async () => {
      const { input } = await signUp(t.app);
      const variants = [input.email, input.email.toUpperCase(), ` ${input.email} `];
      for (let attempt = 0; attempt < rateLimits.passwordReset.max; attempt += 1) {
        const response = await send(t.app, 'POST', '/api/auth/request-password-reset', {
          email: variants[attempt % variants.length],
        });
        expect(response.statusCode).toBe(202);
      }
      expectRateLimited(
        await send(t.app, 'POST', '/api/auth/request-password-reset', { email: input.email }),
      );
      expect(t.mail.sent.filter((message) => message.to === input.email)).toHaveLength(
        rateLimits.passwordReset.max,
      );
    });

    it(`limits one address to ${rateLimits.passwordResetPerIp.max} reset requests, whatever addresses they name, without telling which exist`, async () => {
      const ip = uniqueIp();
      const { input } = await signUp(t.app);
      const bodies: string[] = [];
      for (let attempt = 0; attempt < rateLimits.passwordResetPerIp.max; attempt += 1) {
        const email = attempt === 0 ? input.email : newUserInput().email;
        const response = await send(
          t.app,
          'POST',
          '/api/auth/request-password-reset',
          { email },
          { ip },
        );
        expect(response.statusCode).toBe(202);
        bodies.push(response.body);
      }
      // The answer for an address with an account is the answer for one without.
      expect(new Set(bodies).size).toBe(1);
      const known = await send(
        t.app,
        'POST',
        '/api/auth/request-password-reset',
        { email: input.email },
        { ip },
      );
      const unknown = await send(
        t.app,
        'POST',
        '/api/auth/request-password-reset',
        { email: newUserInput().email },
        { ip },
      );
      expectRateLimited(known);
      expectRateLimited(unknown);
      expect(known.body).toBe(unknown.body);
      expect(t.mail.sent.filter((message) => message.to === input.email)).toHaveLength(1);
    });
  });

  it(
    `caps reset mail for the whole instance at ${rateLimits.passwordResetPerInstance.max} per window`,
    { timeout: 60_000 },
    async () => {
      // An app of its own: this spends the instance's allowance.
      const own = await createTestApp(target);
      try {
        for (let attempt = 0; attempt < rateLimits.passwordResetPerInstance.max; attempt += 1) {
          const response = await send(own.app, 'POST', '/api/auth/request-password-reset', {
            email: newUserInput().email,
          });
          expect(response.statusCode).toBe(202);
        }
        expectRateLimited(
          await send(own.app, 'POST', '/api/auth/request-password-reset', {
            email: newUserInput().email,
          }),
        );
      } finally {
        await own.close();
      }
    },
  );

  describe('sign-out', () => {
    it('ends the session: the cookie no longer signs anyone in', async () => {
      const { cookie } = await signUp(t.app);
      expect(await sessionUser(t, cookie)).not.toBeNull();
      const response = await send(t.app, 'POST', '/api/auth/sign-out', {}, { cookie });
      expect(response.statusCode).toBe(200);
      expect(response.json()).toEqual({ ok: true });
      expect(sessionCookie(response)?.value ?? '').toBe('');
      expect(await sessionUser(t, cookie)).toBeNull();
    });

    it('ends only that session', async () => {
      const { cookie, input } = await signUp(t.app);
      const other = await send(t.app, 'POST', '/api/auth/sign-in', {
        identifier: input.username,
        password: input.password,
      });
      await send(t.app, 'POST', '/api/auth/sign-out', {}, { cookie });
      expect(await sessionUser(t, cookieFrom(other))).not.toBeNull();
    });

    it('is fine without a session, or with a forged one', async () => {
      for (const cookie of [undefined, 'hearth.session_token=forged.value']) {
        const response = await send(t.app, 'POST', '/api/auth/sign-out', {}, { cookie });
        expect(response.statusCode).toBe(200);
        expect(response.json()).toEqual({ ok: true });
      }
    });
  });

  describe('password reset', { timeout: 60_000 }, () => {
    it('answers exactly the same for an unknown address, and mails nothing to it', async () => {
      const { input } = await signUp(t.app);
      const unknown = newUserInput().email;
      const known = await send(t.app, 'POST', '/api/auth/request-password-reset', {
        email: input.email,
      });
      const other = await send(t.app, 'POST', '/api/auth/request-password-reset', {
        email: unknown,
      });
      expect(known.statusCode).toBe(202);
      expect(other.statusCode).toBe(known.statusCode);
      expect(other.body).toBe(known.body);
      expect(other.headers['content-type']).toBe(known.headers['content-type']);
      expect(t.mail.sent.filter((message) => message.to === unknown)).toEqual([]);
      const mail = t.mail.lastTo(input.email);
      expect(mail?.subject).toMatch(/reset/i);
      expect(mail?.text).toContain(mail?.link);
    });

    it('resets once with the mailed token: new password works, old fails, other sessions end', async () => {
      const { input, cookie } = await signUp(t.app);
      const second = await send(t.app, 'POST', '/api/auth/sign-in', {
        identifier: input.email,
        password: input.password,
      });
      expect(second.statusCode).toBe(200);
      await send(t.app, 'POST', '/api/auth/request-password-reset', { email: input.email });
      const token = mailedToken(t, input.email);
      const newPassword = 'a brand new passphrase';

      const reset = await send(t.app, 'POST', '/api/auth/reset-password', { token, newPassword });
      expect(reset.statusCode).toBe(200);
      expect(reset.json()).toEqual({ ok: true });

      expectError(
        await send(t.app, 'POST', '/api/auth/reset-password', {
          token,
          newPassword: 'yet another passphrase',
        }),
        400,
        'invalid_token',
      );
      expectError(
        await send(t.app, 'POST', '/api/auth/sign-in', {
          identifier: input.username,
          password: input.password,
        }),
        401,
        'invalid_credentials',
      );
      expect(
        (
          await send(t.app, 'POST', '/api/auth/sign-in', {
            identifier: input.username,
            password: newPassword,
          })
        ).statusCode,
      ).toBe(200);
      expect(await sessionUser(t, cookie)).toBeNull();
      expect(await sessionUser(t, cookieFrom(second))).toBeNull();
    });

    describe('security mail', () => {
      afterEach(() => {
        vi.restoreAllMocks();
      });

      const chromeOnWindows =
        'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/126.0.0.0 Safari/537.36';

      /** Asks for a reset link for a new account and returns the account and the link's token. */
      async function resetLink() {
        const { input } = await signUp(t.app);
        await send(t.app, 'POST', '/api/auth/request-password-reset', { email: input.email });
        return { input, token: mailedToken(t, input.email) };
      }

      it('mails the account’s address once after a reset: when, which browser, what to do', async () => {
        const { input, token } = await resetLink();
        const first = t.mail.sent.length;
        const start = formatUtc(new Date());
        const reset = await send(
          t.app,
          'POST',
          '/api/auth/reset-password',
          { token, newPassword: 'a brand new passphrase' },
          { headers: { 'user-agent': chromeOnWindows } },
        );
        expect(reset.statusCode, reset.body).toBe(200);
        const times = [start, formatUtc(new Date())];
        const mail = t.mail.sent.slice(first);
        expect(mail).toHaveLength(1);
        const [notice] = mail;
        expect(notice?.to).toBe(input.email);
        expect(notice?.subject).toBe('Your Hearth Test password was changed');
        expect(notice?.text).toContain(
          `@${input.username} was reset with a link sent to this address`,
        );
        expect(notice?.text).toContain('Device: Chrome on Windows');
        expect(times.some((time) => notice?.text.includes(`When: ${time}`))).toBe(true);
        expect(notice?.text).toContain('http://hearth.test/reset-password');
        expect(notice?.text).not.toContain(token);
        expect(notice?.link).toBeUndefined();
      });

      it('mails nothing when a reset is refused', async () => {
        const { input, token } = await resetLink();
        const first = t.mail.sent.length;
        const weak = await send(t.app, 'POST', '/api/auth/reset-password', {
          token,
          newPassword: 'password123',
        });
        expect(weak.statusCode).toBe(400);
        const madeUp = await send(t.app, 'POST', '/api/auth/reset-password', {
          token: `${token}x`,
          newPassword: 'a brand new passphrase',
        });
        expect(madeUp.statusCode).toBe(400);
        expect(t.mail.sent.slice(first).filter((message) => message.to === input.email)).toEqual(
          [],
        );
      });

      it('keeps the reset when the mailer fails, and answers while it hangs', async () => {
        for (const failure of [
          Promise.reject(new Error('mail server down')),
          new Promise<void>(() => undefined),
        ]) {
          // A rejection nobody reads yet must not count as unhandled before the service catches it.
          failure.catch(() => undefined);
          const { input, token } = await resetLink();
          const mailerSend = vi.spyOn(t.mail, 'send').mockReturnValueOnce(failure);
          const reset = await send(t.app, 'POST', '/api/auth/reset-password', {
            token,
            newPassword: 'a brand new passphrase',
          });
          expect(reset.statusCode, reset.body).toBe(200);
          expect(mailerSend).toHaveBeenCalledOnce();
          mailerSend.mockRestore();
          const signIn = await send(t.app, 'POST', '/api/auth/sign-in', {
            identifier: input.email,
            password: 'a brand new passphrase',
          });
          expect(signIn.statusCode).toBe(200);
        }
      });
    });

    it('refuses an expired token and leaves the password as it was', async () => {
      const { input, user } = await signUp(t.app);
      await send(t.app, 'POST', '/api/auth/request-password-reset', { email: input.email });
      const token = mailedToken(t, input.email);
      const handle = openAppDatabase(t);
      try {
        const expired = await handle.db
          .updateTable('verifications')
          .set({ expiresAt: new Date(Date.now() - 60_000).toISOString() })
          .where('identifier', '=', `reset-password:${token}`)
          .where('value', '=', user.uid)
          .executeTakeFirst();
        expect(Number(expired.numUpdatedRows)).toBe(1);
      } finally {
        await handle.close();
      }
      expectError(
        await send(t.app, 'POST', '/api/auth/reset-password', {
          token,
          newPassword: 'a brand new passphrase',
        }),
        400,
        'invalid_token',
      );
      const signIn = await send(t.app, 'POST', '/api/auth/sign-in', {
        identifier: input.email,
        password: input.password,
      });
      expect(signIn.statusCode).toBe(200);
    });

    it('refuses a common new password on newPassword, and the link still works afterwards', async () => {
      const { input } = await signUp(t.app);
      await send(t.app, 'POST', '/api/auth/request-password-reset', { email: input.email });
      const token = mailedToken(t, input.email);
      const error = expectError(
        await send(t.app, 'POST', '/api/auth/reset-password', {
          token,
          newPassword: 'password123',
        }),
        400,
        'validation_failed',
        'newPassword',
      );
      expect(error.fields?.newPassword).toMatch(/common/);
      const retry = await send(t.app, 'POST', '/api/auth/reset-password', {
        token,
        newPassword: 'a brand new passphrase',
      });
      expect(retry.statusCode).toBe(200);
    });

    it.each(['not-a-real-token', 'x'.repeat(256)])(
      'refuses the made-up token %j',
      async (token) => {
        expectError(
          await send(t.app, 'POST', '/api/auth/reset-password', {
            token,
            newPassword: 'a brand new passphrase',
          }),
          400,
          'invalid_token',
        );
      },
    );

    it('refuses a token holding a NUL byte with a 400 on that field, never a 5xx', async () => {
      expectError(
        await send(t.app, 'POST', '/api/auth/reset-password', {
          token: 'abc\u0000def',
          newPassword: 'a brand new passphrase',
        }),
        400,
        'validation_failed',
        'token',
      );
    });

    it('validates the reset bodies', async () => {
      expectError(
        await send(t.app, 'POST', '/api/auth/reset-password', { newPassword: 'long enough 1' }),
        400,
        'validation_failed',
        'token',
      );
      expectError(
        await send(t.app, 'POST', '/api/auth/reset-password', {
          token: 'abc',
          newPassword: 'short',
        }),
        400,
        'validation_failed',
        'newPassword',
      );
      expectError(
        await send(t.app, 'POST', '/api/auth/request-password-reset', { email: 'not an address' }),
        400,
        'validation_failed',
        'email',
      );
    });
  });

  describe('inactive users', () => {
    it('keep their session, can sign in and browse, and see active:false', async () => {
      const { input, user, cookie } = await signUp(t.app);
      const document = await t.app.services.users.setActive(user.username, false);
      expect(document.active).toBe(false);
      expect(await sessionUser(t, cookie)).toMatchObject({ uid: user.uid, active: false });

      const signIn = await send(t.app, 'POST', '/api/auth/sign-in', {
        identifier: input.username,
        password: input.password,
      });
      expect(signIn.statusCode).toBe(200);
      expect(signIn.json()).toMatchObject({ user: { uid: user.uid, active: false } });

      const profile = await send(t.app, 'GET', `/api/users/${user.uid}`, undefined, {
        cookie: cookieFrom(signIn),
      });
      expect(profile.statusCode).toBe(200);
      expect(profile.json()).toMatchObject({ uid: user.uid, active: false });
    });
  });
});

describe.each(databaseTargets)('registration modes on $name', (target) => {
  it('approval: new users sign up inactive', async () => {
    const t = await createTestApp(target, { REGISTRATION_MODE: 'approval' });
    try {
      const response = await send(t.app, 'POST', '/api/auth/sign-up', newUserInput());
      expect(response.statusCode).toBe(201);
      const { user } = response.json<{ user: { uid: string; active: boolean } }>();
      expect(user.active).toBe(false);
      expect(await sessionUser(t, cookieFrom(response))).toMatchObject({ active: false });
      const document = await send(t.app, 'GET', `/api/users/${user.uid}`);
      expect(document.json()).toMatchObject({ active: false });
    } finally {
      await t.close();
    }
  });

  it('closed: sign-up is refused with registration_closed and writes nothing', async () => {
    const t = await createTestApp(target, { REGISTRATION_MODE: 'closed' });
    try {
      const input = newUserInput();
      expectError(
        await send(t.app, 'POST', '/api/auth/sign-up', input),
        403,
        'registration_closed',
      );
      expect(
        (await send(t.app, 'GET', `/api/users/by-username/${input.username}`)).statusCode,
      ).toBe(404);
      expect((await send(t.app, 'GET', '/api/instance')).json()).toMatchObject({
        registrationMode: 'closed',
      });
    } finally {
      await t.close();
    }
  });
});
