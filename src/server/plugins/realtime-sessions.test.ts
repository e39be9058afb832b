/**
 * A realtime socket learns at once, on every instance, that the session it was opened with has ended, and
 * carries on as a signed-out visitor's (ADR 0013).
 */
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { realtimeLimits } from '../../shared/limits.js';
import { topics, userTopic, type ServerMessage } from '../../shared/realtime.js';
import {
  connectRealtime,
  cookieFrom,
  createInstancePair,
  databaseTargets,
  listen,
  realtimeUpgradeStatus,
  send,
  signUp,
  testOrigin,
  testRedisUrl,
  type InstancePair,
  type RealtimeClient,
  type TestApp,
} from '../test/harness.js';
import { setUpListeningApp } from '../test/realtime-suite.js';

const ended: ServerMessage = { type: 'session', state: 'ended' };

/** A person signed in on a second device; returns that session's cookie. */
async function secondDevice(t: TestApp, input: { email: string; password: string }) {
  const response = await send(t.app, 'POST', '/api/auth/sign-in', {
    identifier: input.email,
    password: input.password,
  });
  expect(response.statusCode, response.body).toBe(200);
  return cookieFrom(response);
}

/** The id of a session other than the one `cookie` carries. */
async function otherSessionId(t: TestApp, cookie: string): Promise<string> {
  const response = await send(t.app, 'GET', '/api/account/sessions', undefined, { cookie });
  expect(response.statusCode, response.body).toBe(200);
  const sessions = response.json<{ sessions: { id: string; current: boolean }[] }>().sessions;
  const other = sessions.find((session) => !session.current);
  if (!other) throw new Error('there is no other session');
  return other.id;
}

/** Subscribes and reads the snapshot, which must be a document of that topic. */
async function follow(client: RealtimeClient, topic: string): Promise<void> {
  client.send({ type: 'subscribe', topic });
  expect(await client.next()).toMatchObject({ type: 'doc', topic });
}

describe.each(databaseTargets)('realtime session ends on $name', (target) => {
  const t = setUpListeningApp(target);

  it('tells a socket at once when its session signs out, and keeps its public topics live', async () => {
    const person = await signUp(t.app);
    const topic = userTopic(person.user.uid);
    const socket = await t.connect({ cookie: person.cookie });
    await follow(socket, topic);
    const otherDevice = await t.connect({ cookie: await secondDevice(t, person.input) });
    const visitor = await t.connect();

    const signedOut = await send(t.app, 'POST', '/api/auth/sign-out', undefined, {
      cookie: person.cookie,
    });
    expect(signedOut.statusCode, signedOut.body).toBe(200);
    expect(await socket.next()).toEqual(ended);
    // Only the sockets of the session that ended hear of it.
    expect(await otherDevice.flush()).toEqual([]);
    expect(await visitor.flush()).toEqual([]);

    // The socket stays open, as a signed-out visitor's: the public profile still updates live.
    await t.app.services.users.setRole(person.user.username, 'admin');
    expect(await socket.next()).toMatchObject({ type: 'doc', topic, data: { role: 'admin' } });
  });

  it('tells the sockets of a session revoked from the sessions list, and no others', async () => {
    const person = await signUp(t.app);
    const laptop = await t.connect({ cookie: person.cookie });
    const phone = await t.connect({ cookie: await secondDevice(t, person.input) });
    const revoked = await send(
      t.app,
      'DELETE',
      `/api/account/sessions/${await otherSessionId(t, person.cookie)}`,
      undefined,
      { cookie: person.cookie },
    );
    expect(revoked.statusCode, revoked.body).toBe(200);
    expect(await phone.next()).toEqual(ended);
    expect(await laptop.flush()).toEqual([]);
  });

  it('tells every socket of the account when a password change signs everyone out', async () => {
    const person = await signUp(t.app);
    const here = await t.connect({ cookie: person.cookie });
    const elsewhere = await t.connect({ cookie: await secondDevice(t, person.input) });
    const changed = await send(
      t.app,
      'POST',
      '/api/account/password',
      {
        currentPassword: person.input.password,
        newPassword: 'an entirely new passphrase',
        signOutOtherSessions: true,
      },
      { cookie: person.cookie },
    );
    expect(changed.statusCode, changed.body).toBe(200);
    expect(await elsewhere.next()).toEqual(ended);
    // The tab that changed it was given a new session: its socket, opened with the old one, is told too,
    // so it can reconnect with the new one.
    expect(await here.next()).toEqual(ended);
    const renewed = await t.connect({ cookie: cookieFrom(changed) });
    expect(await renewed.flush()).toEqual([]);
  });

  it('tells the sockets of a password reset and of a deleted account', async () => {
    const reset = await signUp(t.app);
    const resetSocket = await t.connect({ cookie: reset.cookie });
    await send(t.app, 'POST', '/api/auth/request-password-reset', { email: reset.input.email });
    const link = t.mail.lastTo(reset.input.email)?.link ?? '';
    const token = new URL(link).searchParams.get('token') ?? '';
    const answer = await send(t.app, 'POST', '/api/auth/reset-password', {
      token,
      newPassword: 'a brand new passphrase',
    });
    expect(answer.statusCode, answer.body).toBe(200);
    expect(await resetSocket.next()).toEqual(ended);

    const leaving = await signUp(t.app);
    const leavingSocket = await t.connect({ cookie: leaving.cookie });
    const deleted = await send(
      t.app,
      'POST',
      '/api/account/delete',
      { password: leaving.input.password },
      { cookie: leaving.cookie },
    );
    expect(deleted.statusCode, deleted.body).toBe(200);
    const messages: ServerMessage[] = [];
    while (!messages.some((message) => message.type === 'session')) {
      messages.push(await leavingSocket.next());
    }
    expect(messages).toContainEqual(ended);
  });

  it('drops the topics only the signed-in account may follow, and keeps refusing them', async () => {
    const person = await signUp(t.app);
    const stranger = await signUp(t.app);
    const topic = userTopic(person.user.uid);
    // A per-account topic, as notifications will be: the registry's rule is what the server enforces.
    const audience = topics.user.audience;
    topics.user.audience = 'self';
    try {
      const visitor = await t.connect();
      visitor.send({ type: 'subscribe', topic });
      expect(await visitor.next()).toMatchObject({ type: 'error', topic, code: 'unauthenticated' });
      const other = await t.connect({ cookie: stranger.cookie });
      other.send({ type: 'subscribe', topic });
      expect(await other.next()).toMatchObject({ type: 'error', topic, code: 'forbidden' });

      const own = await t.connect({ cookie: person.cookie });
      await follow(own, topic);

      const signedOut = await send(t.app, 'POST', '/api/auth/sign-out', undefined, {
        cookie: person.cookie,
      });
      expect(signedOut.statusCode).toBe(200);
      expect(await own.next()).toEqual(ended);
      expect(await own.next()).toMatchObject({ type: 'error', topic, code: 'unauthenticated' });
      // Signed out now: the same refusal a visitor gets.
      own.send({ type: 'subscribe', topic });
      expect(await own.next()).toMatchObject({ type: 'error', topic, code: 'unauthenticated' });
      await t.app.services.users.setRole(person.user.username, 'admin');
      expect(await own.flush()).toEqual([]);
    } finally {
      topics.user.audience = audience;
    }
  });
});

describe.each(databaseTargets)('realtime session ends and account slots on $name', (target) => {
  const t = setUpListeningApp(target);

  it("gives an ended session's sockets back to the account's allowance", async () => {
    const person = await signUp(t.app);
    const later = await secondDevice(t, person.input);
    const sockets: RealtimeClient[] = [];
    for (let index = 0; index < realtimeLimits.socketsPerAccount; index += 1) {
      sockets.push(await t.connect({ cookie: person.cookie }));
    }
    const headers = { origin: testOrigin, cookie: later };
    expect(await realtimeUpgradeStatus(t.baseUrl, headers)).toBe(429);
    const signedOut = await send(t.app, 'POST', '/api/auth/sign-out', undefined, {
      cookie: person.cookie,
    });
    expect(signedOut.statusCode).toBe(200);
    for (const client of sockets) expect(await client.next()).toEqual(ended);
    // They stay open, but as a visitor's: the account may open sockets again.
    expect(await realtimeUpgradeStatus(t.baseUrl, headers)).toBe(101);
  });
});

describe.runIf(testRedisUrl).each(databaseTargets)(
  'realtime session ends across instances on $name',
  (target) => {
    let pair: InstancePair;
    let baseB = '';
    const open: RealtimeClient[] = [];

    beforeAll(async () => {
      pair = await createInstancePair(target, testRedisUrl ?? '');
      baseB = await listen(pair.b);
    });
    afterEach(async () => {
      await Promise.all(open.splice(0).map((client) => client.close()));
    });
    afterAll(async () => {
      await pair.close();
    });

    it("a sign-out on A reaches that session's socket on B at once", async () => {
      const person = await signUp(pair.a.app);
      const socket = await connectRealtime(baseB, { cookie: person.cookie });
      open.push(socket);
      const signedOut = await send(pair.a.app, 'POST', '/api/auth/sign-out', undefined, {
        cookie: person.cookie,
      });
      expect(signedOut.statusCode).toBe(200);
      expect(await socket.next()).toEqual(ended);
    });

    it("a revocation on A reaches the revoked session's socket on B, and only it", async () => {
      const person = await signUp(pair.a.app);
      const phoneCookie = await secondDevice(pair.a, person.input);
      const phone = await connectRealtime(baseB, { cookie: phoneCookie });
      const laptop = await connectRealtime(baseB, { cookie: person.cookie });
      open.push(phone, laptop);
      const revoked = await send(
        pair.a.app,
        'DELETE',
        `/api/account/sessions/${await otherSessionId(pair.a, person.cookie)}`,
        undefined,
        { cookie: person.cookie },
      );
      expect(revoked.statusCode, revoked.body).toBe(200);
      expect(await phone.next()).toEqual(ended);
      expect(await laptop.flush()).toEqual([]);
    });
  },
);
