import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { userTopic } from '../../shared/realtime.js';
import { notificationsTopic } from '../../shared/realtime-protocol.js';
import { SocketForwardingBus } from '../events/local-socket.js';
import {
  connectRealtime,
  createInstancePair,
  databaseTargets,
  listen,
  realtimeUpgradeStatus,
  send,
  signUp,
  testOrigin,
  testRedisUrl,
  type RealtimeClient,
  type InstancePair,
  type TestApp,
} from '../test/harness.js';
import { setUpListeningApp } from '../test/realtime-suite.js';

/** The public document of `uid`, as the HTTP API serves it. */
async function documentOf(t: TestApp, uid: string): Promise<unknown> {
  const response = await send(t.app, 'GET', `/api/users/${uid}`);
  expect(response.statusCode).toBe(200);
  return response.json();
}

describe.each(databaseTargets)('realtime on $name', (target) => {
  const t = setUpListeningApp(target);

  /** A new user, and a socket that has received the first snapshot of their topic. */
  async function subscribed(options?: Parameters<typeof connectRealtime>[1]) {
    const { user, cookie } = await signUp(t.app);
    const client = await t.connect(options);
    const topic = userTopic(user.uid);
    client.send({ type: 'subscribe', topic });
    const snapshot = await client.next();
    return { user, cookie, client, topic, snapshot };
  }

  it('sends the whole document first after subscribe', async () => {
    const { user, topic, snapshot } = await subscribed();
    expect(snapshot).toEqual({ type: 'doc', topic, data: await documentOf(t, user.uid) });
  });

  it('sends the whole document again after an operator change', async () => {
    const { user, client, topic } = await subscribed();
    await t.app.services.users.setActive(user.username, false);
    const update = await client.next();
    expect(update).toEqual({ type: 'doc', topic, data: await documentOf(t, user.uid) });
    expect(update).toMatchObject({ data: { uid: user.uid, active: false } });

    await t.app.services.users.setRole(user.username, 'admin');
    expect(await client.next()).toMatchObject({
      type: 'doc',
      data: { role: 'admin', active: false },
    });
  });

  it('stops sending after unsubscribe', async () => {
    const { user, client, topic } = await subscribed();
    // A second socket stays subscribed, to show the change really was published.
    const witness = await t.connect();
    witness.send({ type: 'subscribe', topic });
    expect(await witness.next()).toMatchObject({ type: 'doc', topic });

    client.send({ type: 'unsubscribe', topic });
    expect(await client.flush()).toEqual([]);
    await t.app.services.users.setActive(user.username, false);
    expect(await witness.next()).toMatchObject({ type: 'doc', data: { active: false } });
    // Messages on one socket arrive in order: had the change been sent, it would precede the pong.
    expect(await client.flush()).toEqual([]);
  });

  it('answers ping with pong', async () => {
    const client = await t.connect();
    client.send({ type: 'ping' });
    expect(await client.next()).toEqual({ type: 'pong' });
  });

  it('answers a subscription to an unknown user with a null document', async () => {
    const client = await t.connect();
    client.send({ type: 'subscribe', topic: 'users/NoSuchUser123' });
    expect(await client.next()).toEqual({ type: 'doc', topic: 'users/NoSuchUser123', data: null });
  });

  it.each([
    ['malformed JSON', '{"type": "subscribe", '],
    ['a non-object', '42'],
    ['an unknown message type', { type: 'publish', topic: 'users/abc' }],
    ['an unknown topic', { type: 'subscribe', topic: 'comments/123' }],
    ['a topic with odd characters', { type: 'subscribe', topic: 'users/../admin' }],
    ['an over-long topic', { type: 'subscribe', topic: `users/${'a'.repeat(300)}` }],
    ['a missing topic', { type: 'unsubscribe' }],
  ])('answers %s with an error and keeps the socket open', async (_what, message) => {
    const client = await t.connect();
    client.send(message);
    const error = await client.next();
    expect(error).toMatchObject({ type: 'error', code: 'bad_message' });
    expect(error.type === 'error' && error.message.length).toBeGreaterThan(0);
    client.send({ type: 'ping' });
    expect(await client.next()).toEqual({ type: 'pong' });
  });

  it('closes a socket that sends an oversized message', async () => {
    const client = await t.connect();
    client.send({ type: 'subscribe', topic: `users/${'a'.repeat(20 * 1024)}` });
    await expect(client.next()).rejects.toThrow(/1009/);
  });

  it.each([
    ['a foreign Origin', { origin: 'https://attacker.example' }],
    ['a look-alike Origin', { origin: `${testOrigin}.attacker.example` }],
    ['no Origin', {}],
  ])('refuses the upgrade with %s (403)', async (_what, headers: Record<string, string>) => {
    expect(await realtimeUpgradeStatus(t.baseUrl, headers)).toBe(403);
  });

  it('works for a signed-in socket', async () => {
    const { user, cookie } = await signUp(t.app);
    const client = await t.connect({ cookie });
    client.send({ type: 'subscribe', topic: userTopic(user.uid) });
    expect(await client.next()).toMatchObject({ type: 'doc', data: { uid: user.uid } });
    await t.app.services.users.setActive(user.username, false);
    expect(await client.next()).toMatchObject({ type: 'doc', data: { active: false } });
  });

  it('delivers an event from the control socket in DATA_DIR (how the operator CLI reaches a running server)', async () => {
    const { user, client, topic, snapshot } = await subscribed();
    expect(snapshot.type).toBe('doc');
    const data = { ...(await t.app.services.users.getById(user.uid)), bio: 'Set by the operator.' };
    const bus = new SocketForwardingBus(t.config.dataDir);
    await bus.publish({ topic, data });
    await bus.close();
    expect(await client.next()).toEqual({ type: 'doc', topic, data });
  });
});

describe.runIf(testRedisUrl).each(databaseTargets)(
  'realtime across instances on $name',
  (target) => {
    let pair: InstancePair;
    let a: TestApp;
    let b: TestApp;
    let client: RealtimeClient | undefined;
    let urlOfB: string;

    beforeAll(async () => {
      pair = await createInstancePair(target, testRedisUrl ?? '');
      ({ a, b } = pair);
      urlOfB = await listen(b);
    });
    afterAll(async () => {
      await client?.close();
      await pair.close();
    });

    it("a change made through app A's services reaches a socket on app B", async () => {
      const { user } = await signUp(a.app);
      client = await connectRealtime(urlOfB);
      const topic = userTopic(user.uid);
      client.send({ type: 'subscribe', topic });
      expect(await client.next()).toMatchObject({ type: 'doc', topic, data: { active: true } });
      await a.app.services.users.setActive(user.username, false);
      expect(await client.next()).toMatchObject({
        type: 'doc',
        topic,
        data: { uid: user.uid, active: false },
      });
    });

    it("a notification written on app A reaches its account's bell on app B, which reads it", async () => {
      const [me, fan] = await Promise.all([signUp(a.app), signUp(a.app)]);
      const tab = await connectRealtime(urlOfB, { cookie: me.cookie });
      try {
        const topic = notificationsTopic(me.user.uid);
        tab.send({ type: 'subscribe', topic });
        expect(await tab.next()).toEqual({
          type: 'doc',
          topic,
          data: { unread: 0, newestId: null },
        });
        const follow = await send(a.app, 'PUT', `/api/users/${me.user.uid}/follow`, undefined, {
          cookie: fan.cookie,
        });
        expect(follow.statusCode, follow.body).toBe(200);
        expect(await tab.next()).toMatchObject({ type: 'doc', topic, data: { unread: 1 } });
      } finally {
        await tab.close();
      }
    });
  },
);
