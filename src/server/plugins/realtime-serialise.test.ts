import { Socket } from 'node:net';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { userTopic } from '../../shared/realtime.js';
import { databaseTargets, signUp } from '../test/harness.js';
import { setUpListeningApp } from '../test/realtime-suite.js';

/** Sockets on one topic: enough that encoding per socket could not hide among other calls. */
const sockets = 8;

/** The `doc` frames of `topic` handed to JSON.stringify while `spy` was watching. */
function docEncodings(spy: { mock: { calls: unknown[][] } }, topic: string): number {
  return spy.mock.calls.filter(([value]) => {
    if (typeof value !== 'object' || value === null) return false;
    const message = value as { type?: unknown; topic?: unknown };
    return message.type === 'doc' && message.topic === topic;
  }).length;
}

describe.each(databaseTargets)('realtime fan-out on $name', (target) => {
  const t = setUpListeningApp(target);

  afterEach(() => {
    vi.restoreAllMocks();
  });

  /** A new account, and `sockets` sockets on its topic with the snapshot read. */
  async function watchedAccount() {
    const { user } = await signUp(t.app);
    const topic = userTopic(user.uid);
    const clients = await Promise.all(Array.from({ length: sockets }, () => t.connect()));
    for (const client of clients) client.send({ type: 'subscribe', topic });
    for (const client of clients) expect(await client.next()).toMatchObject({ type: 'doc', topic });
    return { user, topic, clients };
  }

  it('serialises a published document once, however many sockets receive it', async () => {
    const { user, topic, clients } = await watchedAccount();

    const stringify = vi.spyOn(JSON, 'stringify');
    await t.app.services.users.setActive(user.username, false);
    const frames = await Promise.all(clients.map((client) => client.next()));
    const encodings = docEncodings(stringify, topic);
    stringify.mockRestore();

    for (const frame of frames) {
      expect(frame).toMatchObject({ type: 'doc', topic, data: { uid: user.uid, active: false } });
    }
    expect(encodings).toBe(1);
  });

  it('writes each socket the same bytes, framed once, in one call', async () => {
    const { user, topic, clients } = await watchedAccount();
    const port = Number(new URL(t.baseUrl).port);
    // What a connection hands the operating system: one call per write, whatever it carries.
    const write = vi.spyOn(Socket.prototype, '_write');
    const writev = vi.spyOn(Socket.prototype, '_writev');

    await t.app.services.users.setActive(user.username, false);
    for (const client of clients) {
      expect(await client.next()).toMatchObject({ type: 'doc', topic, data: { active: false } });
    }
    // The server's side of each socket is the connection whose local port is the app's.
    const onServer = (contexts: unknown[]) =>
      contexts.filter((connection) => (connection as Socket).localPort === port);
    expect(onServer(writev.mock.contexts)).toEqual([]);
    expect(new Set(onServer(write.mock.contexts)).size).toBe(sockets);
    const frames = write.mock.calls
      .filter((_call, index) => (write.mock.contexts[index] as Socket).localPort === port)
      .map(([chunk]): unknown => chunk);
    expect(frames).toHaveLength(sockets);
    expect(new Set(frames).size).toBe(1);
  });
});
