import pino from 'pino';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { LocalEventBus } from '../events/bus.js';
import {
  cookieFrom,
  createInstancePair,
  createTestApp,
  databaseTargets,
  openAppDatabase,
  send,
  signUp,
  testRedisUrl,
  type InstancePair,
  type TestApp,
} from '../test/harness.js';
import { SessionCache, type SessionIdentity } from './session-cache.js';

const silent = pino({ level: 'silent' });
const hour = 60 * 60 * 1000;

describe('SessionCache', () => {
  let clock = 1_000_000;
  const now = () => clock;
  const identity = (uid: string, sessionId = `${uid}-session`): SessionIdentity => ({
    uid,
    sessionId,
    expiresAt: new Date(clock + hour),
  });
  const caches: SessionCache[] = [];
  function cache(options: { ttlMs?: number; maxEntries?: number } = {}, bus = new LocalEventBus()) {
    const created = new SessionCache(bus, silent, { ttlMs: 1_000, ...options, now });
    caches.push(created);
    return created;
  }
  afterEach(() => {
    for (const created of caches.splice(0)) created.close();
  });

  it('asks once, then answers from memory until the entry expires', async () => {
    const sessions = cache();
    const lookup = vi.fn(() => Promise.resolve(identity('ada')));
    expect(await sessions.resolve('token-1', lookup)).toEqual({
      uid: 'ada',
      sessionId: 'ada-session',
    });
    clock += 999;
    expect(await sessions.resolve('token-1', lookup)).toMatchObject({ uid: 'ada' });
    expect(lookup).toHaveBeenCalledTimes(1);
    clock += 1;
    await sessions.resolve('token-1', lookup);
    expect(lookup).toHaveBeenCalledTimes(2);
  });

  it('never trusts a session past its own expiry', async () => {
    const sessions = cache({ ttlMs: 10_000 });
    const lookup = vi.fn(() =>
      Promise.resolve({ ...identity('ada'), expiresAt: new Date(clock + 100) }),
    );
    await sessions.resolve('token', lookup);
    clock += 100;
    await sessions.resolve('token', lookup);
    expect(lookup).toHaveBeenCalledTimes(2);
  });

  it('does not remember cookies that sign nobody in', async () => {
    const sessions = cache();
    const lookup = vi.fn(() => Promise.resolve(null));
    expect(await sessions.resolve('forged', lookup)).toBeNull();
    expect(await sessions.resolve('forged', lookup)).toBeNull();
    expect(lookup).toHaveBeenCalledTimes(2);
    expect(sessions.size).toBe(0);
  });

  it('shares one lookup between concurrent requests with the same cookie', async () => {
    const sessions = cache();
    const lookup = vi.fn(() => Promise.resolve(identity('ada')));
    const answers = await Promise.all([1, 2, 3].map(() => sessions.resolve('token', lookup)));
    expect(answers.every((answer) => answer?.uid === 'ada')).toBe(true);
    expect(lookup).toHaveBeenCalledTimes(1);
  });

  it('keeps at most its bound, dropping the oldest entry first', async () => {
    const sessions = cache({ maxEntries: 3 });
    for (const uid of ['a', 'b', 'c', 'd']) {
      await sessions.resolve(`token-${uid}`, () => Promise.resolve(identity(uid)));
    }
    expect(sessions.size).toBe(3);
    const lookup = vi.fn((uid: string) => Promise.resolve(identity(uid)));
    await sessions.resolve('token-d', () => lookup('d'));
    expect(lookup).not.toHaveBeenCalled();
    await sessions.resolve('token-a', () => lookup('a'));
    expect(lookup).toHaveBeenCalledTimes(1);
  });

  it("forgets one user's sessions and no one else's", async () => {
    const sessions = cache();
    await sessions.resolve('ada-laptop', () => Promise.resolve(identity('ada', 's1')));
    await sessions.resolve('ada-phone', () => Promise.resolve(identity('ada', 's2')));
    await sessions.resolve('bob', () => Promise.resolve(identity('bob')));
    await sessions.sessionsEnded({ uid: 'ada', sessionIds: null });
    expect(sessions.size).toBe(1);
    const lookup = vi.fn(() => Promise.resolve(null));
    expect(await sessions.resolve('ada-laptop', lookup)).toBeNull();
    expect(await sessions.resolve('bob', lookup)).toMatchObject({ uid: 'bob' });
    expect(lookup).toHaveBeenCalledTimes(1);
  });

  it('forgets only the sessions that ended when they are named', async () => {
    const sessions = cache();
    await sessions.resolve('ada-laptop', () => Promise.resolve(identity('ada', 's1')));
    await sessions.resolve('ada-phone', () => Promise.resolve(identity('ada', 's2')));
    await sessions.sessionsEnded({ uid: 'ada', sessionIds: ['s1'] });
    expect(sessions.size).toBe(1);
    const lookup = vi.fn(() => Promise.resolve(null));
    expect(await sessions.resolve('ada-phone', lookup)).toMatchObject({ sessionId: 's2' });
    expect(await sessions.resolve('ada-laptop', lookup)).toBeNull();
    expect(lookup).toHaveBeenCalledTimes(1);
  });

  it('does not keep, nor share, a lookup that was under way when the session ended', async () => {
    const sessions = cache();
    let finish: (value: SessionIdentity) => void = () => undefined;
    const slow = sessions.resolve(
      'token',
      () => new Promise<SessionIdentity>((resolve) => (finish = resolve)),
    );
    await sessions.sessionsEnded({ uid: 'ada', sessionIds: null });
    const after = vi.fn(() => Promise.resolve(null));
    const later = sessions.resolve('token', after);
    finish(identity('ada'));
    // The request that asked before the sign-out gets the answer it asked for; later ones ask afresh.
    expect(await slow).toMatchObject({ uid: 'ada' });
    expect(await later).toBeNull();
    expect(after).toHaveBeenCalledTimes(1);
    expect(sessions.size).toBe(0);
  });

  it('tells other instances through the bus, as an internal event and not a document', async () => {
    const bus = new LocalEventBus();
    const here = cache({}, bus);
    const there = cache({}, bus);
    await there.resolve('token', () => Promise.resolve(identity('ada')));
    const sessionsEnded = vi.fn();
    const document = vi.fn();
    bus.subscribe({ sessionsEnded, document });
    await here.sessionsEnded({ uid: 'ada', sessionIds: ['ada-session'] });
    expect(sessionsEnded).toHaveBeenCalledWith({ uid: 'ada', sessionIds: ['ada-session'] });
    expect(document).not.toHaveBeenCalled();
    expect(there.size).toBe(0);
  });

  it('still forgets locally when the bus fails', async () => {
    const bus = new LocalEventBus();
    vi.spyOn(bus, 'publishSessionsEnded').mockRejectedValue(new Error('redis is down'));
    const sessions = cache({}, bus);
    await sessions.resolve('token', () => Promise.resolve(identity('ada')));
    await expect(sessions.sessionsEnded({ uid: 'ada', sessionIds: null })).resolves.toBeUndefined();
    expect(sessions.size).toBe(0);
  });

  it('trusts nothing cached while the bus may be missing sign-outs, and starts afresh after', async () => {
    const bus = new LocalEventBus();
    const connected = vi.spyOn(bus, 'connected');
    const sessions = cache({}, bus);
    const lookup = vi.fn(() => Promise.resolve(identity('ada')));
    await sessions.resolve('token', lookup);
    expect(sessions.size).toBe(1);

    connected.mockReturnValue(false);
    expect(await sessions.resolve('token', lookup)).toMatchObject({ uid: 'ada' });
    await sessions.resolve('token', lookup);
    expect(lookup).toHaveBeenCalledTimes(3);
    expect(sessions.size).toBe(0);

    connected.mockReturnValue(true);
    await sessions.resolve('token', lookup);
    await sessions.resolve('token', lookup);
    expect(lookup).toHaveBeenCalledTimes(4);
  });
});

/** Status of a request that needs a signed-in viewer (the session list is cheap and read-only). */
async function viewerStatus(app: TestApp['app'], cookie: string): Promise<number> {
  return (await send(app, 'GET', '/api/account/sessions', undefined, { cookie })).statusCode;
}

/** Signs `input` in again, as from a second device; returns that session's cookie. */
async function secondDevice(app: TestApp['app'], input: { email: string; password: string }) {
  const response = await send(app, 'POST', '/api/auth/sign-in', {
    identifier: input.email,
    password: input.password,
  });
  expect(response.statusCode, response.body).toBe(200);
  return cookieFrom(response);
}

async function sessionIds(app: TestApp['app'], cookie: string) {
  const response = await send(app, 'GET', '/api/account/sessions', undefined, { cookie });
  expect(response.statusCode).toBe(200);
  return response.json<{ sessions: { id: string; current: boolean }[] }>().sessions;
}

describe.each(databaseTargets)('session cache on $name', (target) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp(target);
  });
  afterAll(async () => {
    await t.close();
  });

  /** Deletes `uid`'s sessions behind the application's back, as an operator editing the database would. */
  async function deleteSessionsDirectly(uid: string) {
    const handle = openAppDatabase(t);
    try {
      await handle.db.deleteFrom('sessions').where('userId', '=', uid).execute();
    } finally {
      await handle.close();
    }
  }

  it('serves a validated session from memory, but never for a request with two session cookies', async () => {
    const { cookie, user } = await signUp(t.app);
    expect(await viewerStatus(t.app, cookie)).toBe(200);
    await deleteSessionsDirectly(user.uid);
    // Still trusted for the cache's short TTL: nothing told the application the session ended.
    expect(await viewerStatus(t.app, cookie)).toBe(200);
    // Which of two cookies the auth library would check is its business: such requests always ask it.
    expect(await viewerStatus(t.app, `${cookie}; ${cookie}`)).toBe(401);
  });

  it('stops a cached session at once when it signs out', async () => {
    const { input, cookie } = await signUp(t.app);
    const other = await secondDevice(t.app, input);
    expect(await viewerStatus(t.app, cookie)).toBe(200);
    expect(await viewerStatus(t.app, other)).toBe(200);
    const signedOut = await send(t.app, 'POST', '/api/auth/sign-out', undefined, { cookie });
    expect(signedOut.statusCode).toBe(200);
    expect(await viewerStatus(t.app, cookie)).toBe(401);
    expect(await viewerStatus(t.app, other)).toBe(200);
  });

  it('stops a cached session at once when another device revokes it', async () => {
    const { input, cookie } = await signUp(t.app);
    const other = await secondDevice(t.app, input);
    expect(await viewerStatus(t.app, other)).toBe(200);
    const target = (await sessionIds(t.app, cookie)).find((session) => !session.current);
    const revoked = await send(
      t.app,
      'DELETE',
      `/api/account/sessions/${target?.id ?? ''}`,
      undefined,
      { cookie },
    );
    expect(revoked.statusCode, revoked.body).toBe(200);
    expect(await viewerStatus(t.app, other)).toBe(401);
    expect(await viewerStatus(t.app, cookie)).toBe(200);
  });

  it('stops cached sessions when a password change signs the others out', async () => {
    const { input, cookie } = await signUp(t.app);
    const other = await secondDevice(t.app, input);
    expect(await viewerStatus(t.app, other)).toBe(200);
    const changed = await send(
      t.app,
      'POST',
      '/api/account/password',
      {
        currentPassword: input.password,
        newPassword: 'an entirely new passphrase',
        signOutOtherSessions: true,
      },
      { cookie },
    );
    expect(changed.statusCode, changed.body).toBe(200);
    expect(await viewerStatus(t.app, other)).toBe(401);
    expect(await viewerStatus(t.app, cookieFrom(changed))).toBe(200);
  });

  it('stops cached sessions when the password is reset', async () => {
    const { input, cookie } = await signUp(t.app);
    expect(await viewerStatus(t.app, cookie)).toBe(200);
    await send(t.app, 'POST', '/api/auth/request-password-reset', { email: input.email });
    const link = t.mail.lastTo(input.email)?.link ?? '';
    const token = new URL(link).searchParams.get('token') ?? '';
    const reset = await send(t.app, 'POST', '/api/auth/reset-password', {
      token,
      newPassword: 'a brand new passphrase',
    });
    expect(reset.statusCode, reset.body).toBe(200);
    expect(await viewerStatus(t.app, cookie)).toBe(401);
  });

  it('stops cached sessions when the account is deleted', async () => {
    const { input, cookie } = await signUp(t.app);
    const other = await secondDevice(t.app, input);
    expect(await viewerStatus(t.app, other)).toBe(200);
    const deleted = await send(
      t.app,
      'POST',
      '/api/account/delete',
      { password: input.password },
      { cookie },
    );
    expect(deleted.statusCode, deleted.body).toBe(200);
    expect(await viewerStatus(t.app, other)).toBe(401);
  });
});

describe.runIf(testRedisUrl).each(databaseTargets)(
  'session cache across instances on $name',
  (target) => {
    let pair: InstancePair;
    let a: TestApp;
    let b: TestApp;

    beforeAll(async () => {
      pair = await createInstancePair(target, testRedisUrl ?? '');
      ({ a, b } = pair);
    });
    afterAll(async () => {
      await pair.close();
    });

    /** Pub/sub takes a moment to cross; the session must end well within a second. */
    const endsOn = (app: TestApp['app'], cookie: string) =>
      vi.waitFor(async () => expect(await viewerStatus(app, cookie)).toBe(401), {
        timeout: 1_000,
        interval: 10,
      });

    it('a sign-out on one instance ends the session cached on another', async () => {
      const { cookie } = await signUp(a.app);
      expect(await viewerStatus(b.app, cookie)).toBe(200);
      const signedOut = await send(a.app, 'POST', '/api/auth/sign-out', undefined, { cookie });
      expect(signedOut.statusCode).toBe(200);
      await endsOn(b.app, cookie);
    });

    it('a revocation on one instance ends the session cached on another', async () => {
      const { input, cookie } = await signUp(a.app);
      const other = await secondDevice(a.app, input);
      expect(await viewerStatus(b.app, other)).toBe(200);
      const target = (await sessionIds(a.app, cookie)).find((session) => !session.current);
      const revoked = await send(
        a.app,
        'DELETE',
        `/api/account/sessions/${target?.id ?? ''}`,
        undefined,
        { cookie },
      );
      expect(revoked.statusCode, revoked.body).toBe(200);
      await endsOn(b.app, other);
    });
  },
);
