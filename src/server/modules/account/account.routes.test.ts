import { existsSync } from 'node:fs';
import path from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { meResponseSchema, sessionListSchema } from '../../../shared/schemas/account.js';
import { sessionResponseSchema } from '../../../shared/schemas/auth.js';
import { userDocumentSchema } from '../../../shared/schemas/user.js';
import { formatUtc, maskEmail } from '../../mail/security-mail.js';
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
import * as images from '../../test/images.js';
import { sendForm } from '../../test/images.js';

/** Asserts the one JSON error shape with `status` and `code`, and a message on `field` when given. */

const firefoxOnLinux = 'Mozilla/5.0 (X11; Linux x86_64; rv:128.0) Gecko/20100101 Firefox/128.0';
const chromeOnWindows =
  'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/126.0.0.0 Safari/537.36';

describe.each(databaseTargets)('account settings on $name', (target) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp(target);
  });
  afterAll(async () => {
    await t.close();
  });

  /** The signed-in user of a cookie, or null when it signs nobody in. */
  async function sessionUser(cookie: string) {
    const response = await send(t.app, 'GET', '/api/auth/session', undefined, { cookie });
    expect(response.statusCode).toBe(200);
    return sessionResponseSchema.parse(response.json()).user;
  }

  async function signIn(
    identifier: string,
    password: string,
    options: { userAgent?: string; ip?: string } = {},
  ) {
    return send(
      t.app,
      'POST',
      '/api/auth/sign-in',
      { identifier, password },
      {
        ip: options.ip ?? uniqueIp(),
        headers: options.userAgent ? { 'user-agent': options.userAgent } : {},
      },
    );
  }

  /** A second session of the same account. */
  async function secondSession(input: { email: string; password: string }) {
    const response = await signIn(input.email, input.password);
    expect(response.statusCode).toBe(200);
    return cookieFrom(response);
  }

  const post = (url: string, body: unknown, cookie?: string) =>
    send(t.app, 'POST', url, body, { cookie });

  /** The token of the last confirmation link mailed to `email`. */
  function mailedToken(email: string): string {
    const message = t.mail.lastTo(email);
    expect(message?.link).toMatch(/^http:\/\/hearth\.test\/settings\/account\?emailToken=/);
    expect(message?.text).toContain(message?.link);
    const token = new URL(message?.link ?? 'http://x').searchParams.get('emailToken');
    expect(token).toBeTruthy();
    return token ?? '';
  }

  describe('email change', () => {
    it('changes the address once the link mailed to it is followed, and tells the old one', async () => {
      const { input, cookie, user } = await signUp(t.app);
      const newEmail = newUserInput().email;
      const requested = await post(
        '/api/account/email',
        { newEmail: newEmail.toUpperCase(), password: input.password },
        cookie,
      );
      expect(requested.statusCode, requested.body).toBe(202);
      expect(requested.json<{ message: string }>().message).toContain(newEmail);
      const token = mailedToken(newEmail);

      // Until the link is followed, the old address is the one in use.
      expect((await sessionUser(cookie))?.email).toBe(input.email);
      expect((await signIn(newEmail, input.password)).statusCode).toBe(401);

      // The link may be opened in another browser, without a session.
      const confirmed = await post('/api/account/email/confirm', { token });
      expect(confirmed.statusCode, confirmed.body).toBe(200);
      const me = meResponseSchema.parse(confirmed.json()).user;
      expect(me).toMatchObject({ uid: user.uid, username: user.username, email: newEmail });

      expect((await sessionUser(cookie))?.email).toBe(newEmail);
      expect((await signIn(newEmail, input.password)).statusCode).toBe(200);
      expectError(await signIn(input.email, input.password), 401, 'invalid_credentials');

      const notice = t.mail.lastTo(input.email);
      expect(notice?.subject).toMatch(/changed/i);
      expect(notice?.text).toContain(maskEmail(newEmail));
      expect(notice?.text).not.toContain(token);

      expectError(await post('/api/account/email/confirm', { token }), 400, 'invalid_token');
    });

    it('refuses a wrong password on the password field and mails nothing', async () => {
      const { cookie } = await signUp(t.app);
      const newEmail = newUserInput().email;
      expectError(
        await post('/api/account/email', { newEmail, password: 'not my password' }, cookie),
        400,
        'validation_failed',
        'password',
      );
      expect(t.mail.lastTo(newEmail)).toBeUndefined();
    });

    it('refuses the current address (400) and one another account uses (409) on newEmail', async () => {
      const { input, cookie } = await signUp(t.app);
      const other = await signUp(t.app);
      expectError(
        await post(
          '/api/account/email',
          { newEmail: input.email.toUpperCase(), password: input.password },
          cookie,
        ),
        400,
        'validation_failed',
        'newEmail',
      );
      expectError(
        await post(
          '/api/account/email',
          { newEmail: other.input.email, password: input.password },
          cookie,
        ),
        409,
        'conflict',
        'newEmail',
      );
      expect(t.mail.sent.filter((message) => message.to === other.input.email)).toEqual([]);
    });

    it('validates the body', async () => {
      const { input, cookie } = await signUp(t.app);
      expectError(
        await post(
          '/api/account/email',
          { newEmail: 'not an address', password: input.password },
          cookie,
        ),
        400,
        'validation_failed',
        'newEmail',
      );
      expectError(
        await post('/api/account/email', { newEmail: newUserInput().email }, cookie),
        400,
        'validation_failed',
        'password',
      );
    });

    it('keeps only the latest request: an earlier link no longer works', async () => {
      const { input, cookie } = await signUp(t.app);
      const first = newUserInput().email;
      const second = newUserInput().email;
      for (const newEmail of [first, second]) {
        expect(
          (await post('/api/account/email', { newEmail, password: input.password }, cookie))
            .statusCode,
        ).toBe(202);
      }
      expectError(
        await post('/api/account/email/confirm', { token: mailedToken(first) }),
        400,
        'invalid_token',
      );
      expect((await sessionUser(cookie))?.email).toBe(input.email);
      const confirmed = await post('/api/account/email/confirm', { token: mailedToken(second) });
      expect(meResponseSchema.parse(confirmed.json()).user.email).toBe(second);
    });

    it('refuses an expired link and keeps the address', async () => {
      const { input, cookie } = await signUp(t.app);
      const newEmail = newUserInput().email;
      await post('/api/account/email', { newEmail, password: input.password }, cookie);
      const token = mailedToken(newEmail);
      const handle = openAppDatabase(t);
      try {
        const expired = await handle.db
          .updateTable('verifications')
          .set({ expiresAt: new Date(Date.now() - 60_000).toISOString() })
          .where('identifier', '=', `change-email:${token}`)
          .executeTakeFirst();
        expect(Number(expired.numUpdatedRows)).toBe(1);
      } finally {
        await handle.close();
      }
      expectError(await post('/api/account/email/confirm', { token }), 400, 'invalid_token');
      expect((await sessionUser(cookie))?.email).toBe(input.email);
    });

    it('refuses the link with 409 when another account took the address in the meantime', async () => {
      const { input, cookie } = await signUp(t.app);
      const newEmail = newUserInput().email;
      await post('/api/account/email', { newEmail, password: input.password }, cookie);
      const token = mailedToken(newEmail);
      await signUp(t.app, { email: newEmail });
      expectError(await post('/api/account/email/confirm', { token }), 409, 'conflict');
      expect((await sessionUser(cookie))?.email).toBe(input.email);
    });

    it.each(['not-a-real-token', 'x'.repeat(256), "' OR '1'='1", '%', 'change-email:%'])(
      'refuses the made-up token %j',
      async (token) => {
        expectError(await post('/api/account/email/confirm', { token }), 400, 'invalid_token');
      },
    );

    it('refuses a token holding a NUL character with a 400 on token', async () => {
      expectError(
        await post('/api/account/email/confirm', { token: 'abc\u0000def' }),
        400,
        'validation_failed',
        'token',
      );
    });

    it('answers 401 without a session and 403 account_inactive for an inactive user, mailing nothing', async () => {
      const { input, cookie, user } = await signUp(t.app);
      const newEmail = newUserInput().email;
      expectError(
        await post('/api/account/email', { newEmail, password: input.password }),
        401,
        'unauthenticated',
      );
      await t.app.services.users.setActive(user.username, false);
      expectError(
        await post('/api/account/email', { newEmail, password: input.password }, cookie),
        403,
        'account_inactive',
      );
      expect(t.mail.lastTo(newEmail)).toBeUndefined();
    });
  });

  describe('password change', () => {
    const newPassword = 'a fresh and lengthy passphrase';

    it('changes the password; the old one stops working and other sessions stay', async () => {
      const { input, cookie } = await signUp(t.app);
      const other = await secondSession(input);
      const response = await post(
        '/api/account/password',
        { currentPassword: input.password, newPassword },
        cookie,
      );
      expect(response.statusCode, response.body).toBe(200);
      expect(response.json()).toEqual({ ok: true });

      expectError(await signIn(input.username, input.password), 401, 'invalid_credentials');
      expect((await signIn(input.username, newPassword)).statusCode).toBe(200);
      expect(await sessionUser(cookie)).not.toBeNull();
      expect(await sessionUser(other)).not.toBeNull();
    });

    it('with signOutOtherSessions, ends the other sessions and keeps the caller signed in', async () => {
      const { input, cookie, user } = await signUp(t.app);
      const other = await secondSession(input);
      const response = await post(
        '/api/account/password',
        { currentPassword: input.password, newPassword, signOutOtherSessions: true },
        cookie,
      );
      expect(response.statusCode, response.body).toBe(200);
      const renewed = cookieFrom(response);
      expect(renewed).toMatch(/hearth\.session_token=[^;]+/);
      expect((await sessionUser(renewed))?.uid).toBe(user.uid);
      expect(await sessionUser(other)).toBeNull();
      expect((await signIn(input.email, newPassword)).statusCode).toBe(200);
    });

    it('refuses a wrong current password on currentPassword and keeps the password', async () => {
      const { input, cookie } = await signUp(t.app);
      expectError(
        await post(
          '/api/account/password',
          { currentPassword: 'not my password', newPassword },
          cookie,
        ),
        400,
        'validation_failed',
        'currentPassword',
      );
      expectError(await signIn(input.email, newPassword), 401, 'invalid_credentials');
      expect((await signIn(input.email, input.password)).statusCode).toBe(200);
    });

    it.each([
      ['a common password', 'password123'],
      ['a short password', 'short'],
    ])('refuses %s on newPassword', async (_what, weak) => {
      const { input, cookie } = await signUp(t.app);
      expectError(
        await post(
          '/api/account/password',
          { currentPassword: input.password, newPassword: weak },
          cookie,
        ),
        400,
        'validation_failed',
        'newPassword',
      );
      expect((await signIn(input.email, input.password)).statusCode).toBe(200);
    });

    it('refuses the current password as the new one on newPassword', async () => {
      const { input, cookie } = await signUp(t.app);
      expectError(
        await post(
          '/api/account/password',
          { currentPassword: input.password, newPassword: input.password },
          cookie,
        ),
        400,
        'validation_failed',
        'newPassword',
      );
    });

    it('answers 401 without a session, and lets an inactive user change it', async () => {
      const { input, cookie, user } = await signUp(t.app);
      expectError(
        await post('/api/account/password', { currentPassword: input.password, newPassword }),
        401,
        'unauthenticated',
      );
      await t.app.services.users.setActive(user.username, false);
      const response = await post(
        '/api/account/password',
        { currentPassword: input.password, newPassword },
        cookie,
      );
      expect(response.statusCode, response.body).toBe(200);
      expect((await signIn(input.email, newPassword)).statusCode).toBe(200);
    });
  });

  describe('security mail', () => {
    afterEach(() => {
      vi.restoreAllMocks();
    });

    /** What was mailed while `change` ran, and the minutes it ran in, as a mail names them. */
    async function mailedDuring(change: () => Promise<void>) {
      const first = t.mail.sent.length;
      const start = new Date();
      await change();
      const end = new Date();
      return { mail: t.mail.sent.slice(first), times: [formatUtc(start), formatUtc(end)] };
    }

    it('mails the account’s address once when the password changes: when, which browser, what to do', async () => {
      const { input, cookie } = await signUp(t.app);
      const { mail, times } = await mailedDuring(async () => {
        const response = await send(
          t.app,
          'POST',
          '/api/account/password',
          { currentPassword: input.password, newPassword: 'a fresh and lengthy passphrase' },
          { cookie, headers: { 'user-agent': firefoxOnLinux } },
        );
        expect(response.statusCode, response.body).toBe(200);
      });
      expect(mail).toHaveLength(1);
      const [notice] = mail;
      expect(notice?.to).toBe(input.email);
      expect(notice?.subject).toBe('Your Hearth Test password was changed');
      expect(notice?.text).toContain(`@${input.username} was changed from its account settings`);
      expect(notice?.text).toContain('Device: Firefox on Linux');
      expect(times.some((time) => notice?.text.includes(`When: ${time}`))).toBe(true);
      expect(notice?.text).toContain('http://hearth.test/reset-password');
      expect(notice?.html).toContain('href="http://hearth.test/reset-password"');
      expect(notice?.text).not.toContain('a fresh and lengthy passphrase');
    });

    it('mails nothing when the password change is refused', async () => {
      const { input, cookie } = await signUp(t.app);
      const { mail } = await mailedDuring(async () => {
        const response = await post(
          '/api/account/password',
          { currentPassword: 'not my password', newPassword: 'a fresh and lengthy passphrase' },
          cookie,
        );
        expect(response.statusCode).toBe(400);
      });
      expect(mail.filter((message) => message.to === input.email)).toEqual([]);
    });

    it('mails the old address once when the email changes, with the new one partly hidden', async () => {
      const { input, cookie } = await signUp(t.app);
      const newEmail = newUserInput().email;
      await post('/api/account/email', { newEmail, password: input.password }, cookie);
      const token = mailedToken(newEmail);
      const { mail, times } = await mailedDuring(async () => {
        const response = await post('/api/account/email/confirm', { token });
        expect(response.statusCode, response.body).toBe(200);
      });
      expect(mail).toHaveLength(1);
      const [notice] = mail;
      expect(notice?.to).toBe(input.email);
      expect(notice?.subject).toBe('Your Hearth Test email address was changed');
      expect(notice?.text).toContain(`was changed to ${maskEmail(newEmail)}.`);
      expect(maskEmail(newEmail)).toMatch(/^p•••@example\.test$/);
      expect(notice?.text).not.toContain(newEmail);
      expect(notice?.html).not.toContain(newEmail);
      expect(times.some((time) => notice?.text.includes(`When: ${time}`))).toBe(true);
      expect(notice?.text).toContain('http://hearth.test/settings/account');
    });

    it('keeps a password change when the mailer fails', async () => {
      const { input, cookie } = await signUp(t.app);
      vi.spyOn(t.mail, 'send').mockRejectedValueOnce(new Error('mail server down'));
      const response = await post(
        '/api/account/password',
        { currentPassword: input.password, newPassword: 'a fresh and lengthy passphrase' },
        cookie,
      );
      expect(response.statusCode, response.body).toBe(200);
      expect((await signIn(input.email, 'a fresh and lengthy passphrase')).statusCode).toBe(200);
    });

    it('answers an email change at once while the mailer hangs, and keeps it', async () => {
      const { input, cookie } = await signUp(t.app);
      const newEmail = newUserInput().email;
      await post('/api/account/email', { newEmail, password: input.password }, cookie);
      const token = mailedToken(newEmail);
      const mailerSend = vi.spyOn(t.mail, 'send').mockReturnValueOnce(new Promise(() => undefined));
      const response = await post('/api/account/email/confirm', { token });
      expect(response.statusCode, response.body).toBe(200);
      expect(mailerSend).toHaveBeenCalledOnce();
      expect((await sessionUser(cookie))?.email).toBe(newEmail);
    });
  });

  describe('sessions', () => {
    const listSessions = async (cookie: string) => {
      const response = await send(t.app, 'GET', '/api/account/sessions', undefined, { cookie });
      expect(response.statusCode, response.body).toBe(200);
      expect(response.headers['cache-control']).toBe('no-store');
      return sessionListSchema.parse(response.json()).sessions;
    };

    /** A user signed up on Firefox/Linux and signed in again on Chrome/Windows, from two addresses. */
    async function onTwoDevices() {
      const input = newUserInput();
      const firstIp = uniqueIp();
      const secondIp = uniqueIp();
      const signedUp = await send(t.app, 'POST', '/api/auth/sign-up', input, {
        ip: firstIp,
        headers: { 'user-agent': firefoxOnLinux },
      });
      expect(signedUp.statusCode).toBe(201);
      const signedIn = await signIn(input.email, input.password, {
        userAgent: chromeOnWindows,
        ip: secondIp,
      });
      expect(signedIn.statusCode).toBe(200);
      const uid = signedUp.json<{ user: { uid: string } }>().user.uid;
      return {
        input,
        uid,
        firefox: { cookie: cookieFrom(signedUp), ip: firstIp },
        chrome: { cookie: cookieFrom(signedIn), ip: secondIp },
      };
    }

    it('lists the signed-in devices with browser, system and address, marking the current one', async () => {
      const { firefox, chrome } = await onTwoDevices();
      const fromFirefox = await listSessions(firefox.cookie);
      expect(fromFirefox).toHaveLength(2);
      expect(fromFirefox.find((session) => session.current)).toMatchObject({
        device: 'Firefox on Linux',
        ipAddress: firefox.ip,
        location: null,
      });
      expect(fromFirefox.find((session) => !session.current)).toMatchObject({
        device: 'Chrome on Windows',
        ipAddress: chrome.ip,
      });
      for (const session of fromFirefox) {
        expect(new Date(session.createdAt).toISOString()).toBe(session.createdAt);
        expect(new Date(session.lastSeenAt).toISOString()).toBe(session.lastSeenAt);
      }

      const fromChrome = await listSessions(chrome.cookie);
      expect(fromChrome.find((session) => session.current)?.device).toBe('Chrome on Windows');
      expect(new Set(fromChrome.map((session) => session.id))).toEqual(
        new Set(fromFirefox.map((session) => session.id)),
      );
    });

    it('ends another of its own sessions, which then signs nobody in', async () => {
      const { firefox, chrome } = await onTwoDevices();
      const other = (await listSessions(firefox.cookie)).find((session) => !session.current);
      expect(other).toBeDefined();
      const id = other?.id ?? '';

      const ended = await send(t.app, 'DELETE', `/api/account/sessions/${id}`, undefined, {
        cookie: firefox.cookie,
      });
      expect(ended.statusCode, ended.body).toBe(200);
      expect(ended.json()).toEqual({ ok: true });
      expect(await sessionUser(chrome.cookie)).toBeNull();
      expect((await listSessions(firefox.cookie)).map((session) => session.id)).not.toContain(id);

      expectError(
        await send(t.app, 'DELETE', `/api/account/sessions/${id}`, undefined, {
          cookie: firefox.cookie,
        }),
        404,
        'not_found',
      );
    });

    it('ends the current session too, signing the caller out', async () => {
      const { cookie } = await signUp(t.app);
      const [current] = await listSessions(cookie);
      expect(current?.current).toBe(true);
      const ended = await send(
        t.app,
        'DELETE',
        `/api/account/sessions/${current?.id ?? ''}`,
        undefined,
        {
          cookie,
        },
      );
      expect(ended.statusCode).toBe(200);
      expect(await sessionUser(cookie)).toBeNull();
    });

    it("answers 404 for someone else's session or an unknown one, which go on", async () => {
      const victim = await signUp(t.app);
      const attacker = await signUp(t.app);
      const [victimSession] = await listSessions(victim.cookie);
      expect(victimSession).toBeDefined();
      for (const id of [victimSession?.id ?? '', 'NoSuchSession123']) {
        expectError(
          await send(t.app, 'DELETE', `/api/account/sessions/${id}`, undefined, {
            cookie: attacker.cookie,
          }),
          404,
          'not_found',
        );
      }
      expect((await sessionUser(victim.cookie))?.uid).toBe(victim.user.uid);
      expect(await sessionUser(attacker.cookie)).not.toBeNull();
    });

    it('answers 401 without a session', async () => {
      expectError(await send(t.app, 'GET', '/api/account/sessions'), 401, 'unauthenticated');
      expectError(
        await send(t.app, 'DELETE', '/api/account/sessions/AnySession123'),
        401,
        'unauthenticated',
      );
    });

    it('lets an inactive user see and end sessions', async () => {
      const { uid, firefox, chrome } = await onTwoDevices();
      const username = (await send(t.app, 'GET', `/api/users/${uid}`)).json<{ username: string }>()
        .username;
      await t.app.services.users.setActive(username, false);
      const other = (await listSessions(firefox.cookie)).find((session) => !session.current);
      const ended = await send(
        t.app,
        'DELETE',
        `/api/account/sessions/${other?.id ?? ''}`,
        undefined,
        {
          cookie: firefox.cookie,
        },
      );
      expect(ended.statusCode, ended.body).toBe(200);
      expect(await sessionUser(chrome.cookie)).toBeNull();
    });
  });

  describe('deletion', () => {
    const mediaFile = (url: string | null) => {
      expect(url).toMatch(/^\/media\//);
      return path.join(t.config.dataDir, 'media', (url ?? '').slice('/media/'.length));
    };

    it('deletes the account, its sessions and its files, and clears the cookie', async () => {
      const { input, cookie, user } = await signUp(t.app);
      const other = await secondSession(input);
      const uploaded = await sendForm(
        t.app,
        'PATCH',
        `/api/users/${user.uid}/profile`,
        { avatar: { bytes: await images.jpeg() }, cover: { bytes: await images.png(1500, 500) } },
        { cookie },
      );
      expect(uploaded.statusCode, uploaded.body).toBe(200);
      const document = userDocumentSchema.parse(uploaded.json());
      const urls = [document.avatar, document.avatarThumb, document.cover];
      for (const url of urls) expect(existsSync(mediaFile(url))).toBe(true);

      const response = await post('/api/account/delete', { password: input.password }, cookie);
      expect(response.statusCode, response.body).toBe(200);
      expect(response.json()).toEqual({ ok: true });
      const cleared = response.cookies.find((c) => c.name === 'hearth.session_token');
      expect(cleared?.value).toBe('');
      expect(cleared?.maxAge).toBe(0);

      expectError(await send(t.app, 'GET', `/api/users/${user.uid}`), 404, 'not_found');
      expectError(
        await send(t.app, 'GET', `/api/users/by-username/${user.username}`),
        404,
        'not_found',
      );
      expect(await sessionUser(cookie)).toBeNull();
      expect(await sessionUser(other)).toBeNull();
      for (const url of urls) {
        expect(existsSync(mediaFile(url))).toBe(false);
        expect((await send(t.app, 'GET', url ?? '')).statusCode).toBe(404);
      }
      expectError(await signIn(input.email, input.password), 401, 'invalid_credentials');
    });

    it('takes its posts, follows, likes and comments out of everyone else’s counts', async () => {
      const leaving = await signUp(t.app);
      const staying = await signUp(t.app);
      const as = (cookie: string) => ({ cookie });
      const created = await sendForm(
        t.app,
        'POST',
        '/api/posts',
        { body: 'Mine, with a picture', image0: { bytes: await images.jpeg() } },
        as(leaving.cookie),
      );
      expect(created.statusCode, created.body).toBe(201);
      const ownPost = created.json<{ id: string; images: { url: string }[] }>();
      const theirPost = (
        await send(t.app, 'POST', '/api/posts', { body: 'Theirs' }, as(staying.cookie))
      ).json<{ id: string }>();
      const thread = (
        await post(`/api/posts/${theirPost.id}/comments`, { body: 'Staying here' }, staying.cookie)
      ).json<{ id: string }>();
      for (const [method, url, body, cookie] of [
        ['PUT', `/api/users/${staying.user.uid}/follow`, undefined, leaving.cookie],
        ['PUT', `/api/users/${leaving.user.uid}/follow`, undefined, staying.cookie],
        ['PUT', `/api/posts/${theirPost.id}/like`, undefined, leaving.cookie],
        ['PUT', `/api/comments/${thread.id}/like`, undefined, leaving.cookie],
        ['POST', `/api/posts/${theirPost.id}/comments`, { body: 'A comment' }, leaving.cookie],
        [
          'POST',
          `/api/posts/${theirPost.id}/comments`,
          { body: 'A reply', parentId: thread.id },
          leaving.cookie,
        ],
      ] as const) {
        const response = await send(t.app, method, url, body, as(cookie));
        expect(response.statusCode, `${method} ${url}: ${response.body}`).toBeLessThan(300);
      }

      const deleted = await post(
        '/api/account/delete',
        { password: leaving.input.password },
        leaving.cookie,
      );
      expect(deleted.statusCode, deleted.body).toBe(200);

      const counts = (await send(t.app, 'GET', `/api/users/${staying.user.uid}`)).json<{
        counts: { posts: number; followers: number; following: number };
      }>().counts;
      expect(counts).toEqual({ posts: 1, followers: 0, following: 0 });
      const remaining = (await send(t.app, 'GET', `/api/posts/${theirPost.id}`)).json<{
        likeCount: number;
        commentCount: number;
      }>();
      expect(remaining.likeCount).toBe(0);
      expect(remaining.commentCount).toBe(1);
      const threads = (await send(t.app, 'GET', `/api/posts/${theirPost.id}/comments`)).json<{
        items: { id: string; likeCount: number; replyCount: number; replies: unknown[] }[];
      }>().items;
      expect(threads).toHaveLength(1);
      expect(threads[0]).toMatchObject({ id: thread.id, likeCount: 0, replyCount: 0, replies: [] });
      expectError(await send(t.app, 'GET', `/api/posts/${ownPost.id}`), 404, 'not_found');
      expect(existsSync(mediaFile(ownPost.images[0]?.url ?? null))).toBe(false);
    });

    it('keeps the username reserved: signing up with it is refused on username', async () => {
      const { input, cookie, user } = await signUp(t.app);
      expect(
        (await post('/api/account/delete', { password: input.password }, cookie)).statusCode,
      ).toBe(200);
      expectError(
        await send(t.app, 'POST', '/api/auth/sign-up', newUserInput({ username: user.username })),
        409,
        'conflict',
        'username',
      );
    });

    it('stops the redirects of names it gave up earlier, but keeps them reserved', async () => {
      const { input, cookie, user } = await signUp(t.app);
      const renamed = newUserInput().username;
      const rename = await send(
        t.app,
        'PATCH',
        `/api/users/${user.uid}/profile`,
        { username: renamed },
        { cookie },
      );
      expect(rename.statusCode, rename.body).toBe(200);
      expect((await send(t.app, 'GET', `/api/users/by-username/${user.username}`)).statusCode).toBe(
        200,
      );
      expect(
        (await post('/api/account/delete', { password: input.password }, cookie)).statusCode,
      ).toBe(200);
      for (const name of [user.username, renamed]) {
        expectError(await send(t.app, 'GET', `/api/users/by-username/${name}`), 404, 'not_found');
        expectError(
          await send(t.app, 'POST', '/api/auth/sign-up', newUserInput({ username: name })),
          409,
          'conflict',
          'username',
        );
      }
    });

    it('makes a pending email-change link useless', async () => {
      const { input, cookie } = await signUp(t.app);
      const newEmail = newUserInput().email;
      await post('/api/account/email', { newEmail, password: input.password }, cookie);
      const link = t.mail.lastTo(newEmail)?.link ?? '';
      const token = new URL(link).searchParams.get('emailToken') ?? '';
      expect(token).not.toBe('');
      expect(
        (await post('/api/account/delete', { password: input.password }, cookie)).statusCode,
      ).toBe(200);
      expectError(await post('/api/account/email/confirm', { token }), 400, 'invalid_token');
    });

    it('refuses a wrong password on the password field and keeps everything', async () => {
      const { cookie, user } = await signUp(t.app);
      expectError(
        await post('/api/account/delete', { password: 'not my password' }, cookie),
        400,
        'validation_failed',
        'password',
      );
      expect((await send(t.app, 'GET', `/api/users/${user.uid}`)).statusCode).toBe(200);
      expect((await sessionUser(cookie))?.uid).toBe(user.uid);
    });

    it('answers 401 without a session, and lets an inactive user delete their account', async () => {
      const { input, cookie, user } = await signUp(t.app);
      expectError(
        await post('/api/account/delete', { password: input.password }),
        401,
        'unauthenticated',
      );
      await t.app.services.users.setActive(user.username, false);
      expect(
        (await post('/api/account/delete', { password: input.password }, cookie)).statusCode,
      ).toBe(200);
      expect((await send(t.app, 'GET', `/api/users/${user.uid}`)).statusCode).toBe(404);
    });
  });
});
