import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import * as protocol from '@shared/realtime.js';
import type { UserDocument } from '@shared/schemas/user.js';
import { makePost } from '@web/test/post-fixtures.js';
import { makeUserDocument } from '@web/test/user-fixtures.js';
import type { TopicDocument } from '@shared/contract/topics.js';
import {
  backoffDelay,
  parseServerMessage,
  RealtimeClient,
  reconnectMaxDelayMs,
  snapshotFallbackDelayMs,
  type RealtimeSocket,
  type SocketHandlers,
} from './realtime-client.js';

const ada: UserDocument = makeUserDocument();
const u1 = protocol.userTopic('u1');
const u2 = protocol.userTopic('u2');

class FakeSocket implements RealtimeSocket {
  readonly sent: unknown[] = [];
  closedWith: number | null = null;

  constructor(
    readonly url: string,
    private readonly handlers: SocketHandlers,
  ) {}

  send(data: string): void {
    this.sent.push(JSON.parse(data));
  }

  close(code?: number): void {
    this.closedWith = code ?? 1000;
  }

  open(): void {
    this.handlers.onOpen();
  }

  receive(message: unknown): void {
    this.handlers.onMessage(JSON.stringify(message));
  }

  receiveRaw(raw: string): void {
    this.handlers.onMessage(raw);
  }

  drop(code = 1006): void {
    this.handlers.onClose(code);
  }
}

function setup(options: { lingerMs?: number } = {}) {
  const sockets: FakeSocket[] = [];
  const client = new RealtimeClient({
    createSocket: (url, handlers) => {
      const socket = new FakeSocket(url, handlers);
      sockets.push(socket);
      return socket;
    },
    loadProtocol: () => Promise.resolve(protocol),
    url: (path) => `ws://hearth.test${path}`,
    random: () => 0.5,
    lingerMs: options.lingerMs ?? 0,
  });
  const latest = () => {
    const socket = sockets.at(-1);
    if (!socket) throw new Error('no socket was opened');
    return socket;
  };
  return { client, sockets, latest };
}

/** Lets the lazily loaded protocol resolve and the socket be created. */
async function flush(ms = 0): Promise<void> {
  await vi.advanceTimersByTimeAsync(ms);
}

beforeEach(() => {
  vi.useFakeTimers();
});

afterEach(() => {
  vi.useRealTimers();
});

describe('backoffDelay', () => {
  it('grows exponentially with jitter', () => {
    expect(backoffDelay(0, () => 0)).toBe(250);
    expect(backoffDelay(0, () => 1)).toBe(500);
    expect(backoffDelay(1, () => 0)).toBe(500);
    expect(backoffDelay(3, () => 1)).toBe(4000);
  });

  it('stays within [half, whole] of the step', () => {
    for (let attempt = 0; attempt < 8; attempt += 1) {
      const step = Math.min(reconnectMaxDelayMs, 500 * 2 ** attempt);
      const delay = backoffDelay(attempt, Math.random);
      expect(delay).toBeGreaterThanOrEqual(step / 2);
      expect(delay).toBeLessThanOrEqual(step);
    }
  });

  it('is capped at about 30 s', () => {
    expect(backoffDelay(30, () => 1)).toBe(reconnectMaxDelayMs);
    expect(backoffDelay(30, () => 0)).toBe(reconnectMaxDelayMs / 2);
  });
});

describe('parseServerMessage', () => {
  const schema = protocol.serverMessageSchema;

  it('accepts the contract’s messages', () => {
    expect(parseServerMessage('{"type":"pong"}', schema)).toEqual({ type: 'pong' });
    expect(
      parseServerMessage(JSON.stringify({ type: 'doc', topic: 'users/u1', data: ada }), schema),
    ).toEqual({ type: 'doc', topic: 'users/u1', data: ada });
    expect(
      parseServerMessage(JSON.stringify({ type: 'doc', topic: 'users/u1', data: null }), schema),
    ).toEqual({ type: 'doc', topic: 'users/u1', data: null });
  });

  it('accepts posts and feed signals', () => {
    const post = makePost({ id: '12' });
    expect(
      parseServerMessage(JSON.stringify({ type: 'doc', topic: 'posts/12', data: post }), schema),
    ).toEqual({ type: 'doc', topic: 'posts/12', data: post });
    const signal = { head: '12', change: { kind: 'deleted', postId: '11' } };
    expect(
      parseServerMessage(JSON.stringify({ type: 'doc', topic: 'feed', data: signal }), schema),
    ).toEqual({ type: 'doc', topic: 'feed', data: signal });
  });

  it('reads a document by its topic: one of another kind, or on an unknown topic, is dropped', () => {
    const post = makePost({ id: '12' });
    const signal = { head: '12', change: null };
    const frame = (topic: string, data: unknown) => JSON.stringify({ type: 'doc', topic, data });
    expect(parseServerMessage(frame('users/u1', post), schema)).toBeNull();
    expect(parseServerMessage(frame('users/u1', signal), schema)).toBeNull();
    expect(parseServerMessage(frame('posts/12', ada), schema)).toBeNull();
    expect(parseServerMessage(frame('feed', post), schema)).toBeNull();
    // The feed always has a signal: null is not one of its documents.
    expect(parseServerMessage(frame('feed', null), schema)).toBeNull();
    expect(parseServerMessage(frame('comments/12', null), schema)).toBeNull();
    expect(parseServerMessage(frame('posts/012', null), schema)).toBeNull();
  });

  it('accepts the session-ended notice', () => {
    expect(parseServerMessage('{"type":"session","state":"ended"}', schema)).toEqual({
      type: 'session',
      state: 'ended',
    });
    expect(parseServerMessage('{"type":"session","state":"started"}', schema)).toBeNull();
  });

  it('drops what is not JSON or not in the contract', () => {
    expect(parseServerMessage('not json', schema)).toBeNull();
    expect(parseServerMessage('{"type":"surprise"}', schema)).toBeNull();
    expect(
      parseServerMessage(
        JSON.stringify({ type: 'doc', topic: 'users/u1', data: { uid: 1 } }),
        schema,
      ),
    ).toBeNull();
  });
});

describe('RealtimeClient', () => {
  it('opens one socket lazily and subscribes each topic once, however many listeners', async () => {
    const { client, sockets, latest } = setup();
    expect(sockets).toHaveLength(0);
    client.subscribe(u1, () => undefined);
    client.subscribe(u1, () => undefined);
    client.subscribe(u2, () => undefined);
    await flush();
    expect(sockets).toHaveLength(1);
    expect(latest().url).toBe('ws://hearth.test/api/realtime');
    latest().open();
    expect(latest().sent).toEqual([
      { type: 'subscribe', topic: 'users/u1' },
      { type: 'subscribe', topic: 'users/u2' },
    ]);
    client.dispose();
  });

  it('delivers documents to the topic’s listeners as snapshots', async () => {
    const { client, latest } = setup();
    const listener = vi.fn();
    client.subscribe(u1, listener);
    await flush();
    latest().open();
    expect(client.getSnapshot(u1)).toBeUndefined();
    latest().receive({ type: 'doc', topic: 'users/u1', data: ada });
    expect(listener).toHaveBeenCalledTimes(1);
    expect(client.getSnapshot(u1)).toEqual({ data: ada });
    latest().receive({ type: 'doc', topic: 'users/u1', data: null });
    expect(client.getSnapshot(u1)).toEqual({ data: null });
    expect(listener).toHaveBeenCalledTimes(2);
    client.dispose();
  });

  it('ignores frames that are not in the contract', async () => {
    const { client, latest } = setup();
    const listener = vi.fn();
    client.subscribe(u1, listener);
    await flush();
    latest().open();
    latest().receiveRaw('garbage');
    latest().receive({ type: 'doc', topic: 'users/u1', data: { nope: true } });
    expect(listener).not.toHaveBeenCalled();
    client.dispose();
  });

  it('never hands a topic’s listeners a document of another kind', async () => {
    const { client, latest } = setup();
    const listener = vi.fn();
    const topic = protocol.postTopic('12');
    client.subscribe(topic, listener);
    await flush();
    latest().open();
    latest().receive({ type: 'doc', topic, data: ada });
    expect(listener).not.toHaveBeenCalled();
    const post = makePost({ id: '12' });
    latest().receive({ type: 'doc', topic, data: post });
    expect(listener).toHaveBeenCalledTimes(1);
    expect(client.getSnapshot(topic)?.data).toEqual(post);
    client.dispose();
  });

  it('unsubscribes when the last listener leaves, and closes the idle socket', async () => {
    const { client, latest } = setup({ lingerMs: 1000 });
    const stopA = client.subscribe(u1, () => undefined);
    const stopB = client.subscribe(u1, () => undefined);
    await flush();
    const socket = latest();
    socket.open();
    stopA();
    await flush(1000);
    expect(socket.sent).not.toContainEqual({ type: 'unsubscribe', topic: 'users/u1' });
    stopB();
    stopB();
    await flush(999);
    expect(socket.sent).not.toContainEqual({ type: 'unsubscribe', topic: 'users/u1' });
    await flush(1);
    expect(socket.sent).toContainEqual({ type: 'unsubscribe', topic: 'users/u1' });
    expect(socket.closedWith).toBe(1000);
    expect(client.topicNames).toEqual([]);
  });

  it('keeps a lingering topic when it is wanted again, without resubscribing', async () => {
    const { client, latest } = setup({ lingerMs: 1000 });
    const stop = client.subscribe(u1, () => undefined);
    await flush();
    latest().open();
    latest().receive({ type: 'doc', topic: 'users/u1', data: ada });
    stop();
    await flush(500);
    client.subscribe(u1, () => undefined);
    await flush(1000);
    expect(latest().sent.filter((m) => (m as { type: string }).type !== 'ping')).toEqual([
      { type: 'subscribe', topic: 'users/u1' },
    ]);
    expect(client.getSnapshot(u1)).toEqual({ data: ada });
    client.dispose();
  });

  it('reconnects with backoff after a drop and resubscribes every topic', async () => {
    const { client, sockets, latest } = setup();
    client.subscribe(u1, () => undefined);
    client.subscribe(u2, () => undefined);
    await flush();
    latest().open();
    latest().drop(1006);
    expect(client.connectionState).toBe('waiting');
    // attempt 0 with random 0.5: 250 + 0.5 * 250
    await flush(374);
    expect(sockets).toHaveLength(1);
    await flush(1);
    expect(sockets).toHaveLength(2);
    latest().open();
    expect(latest().sent).toEqual([
      { type: 'subscribe', topic: 'users/u1' },
      { type: 'subscribe', topic: 'users/u2' },
    ]);
    client.dispose();
  });

  it('backs off further while connections keep failing, and resets once one talks', async () => {
    const { client, sockets, latest } = setup();
    client.subscribe(u1, () => undefined);
    await flush();
    latest().drop();
    await flush(375);
    expect(sockets).toHaveLength(2);
    latest().drop();
    await flush(749);
    expect(sockets).toHaveLength(2);
    await flush(1);
    expect(sockets).toHaveLength(3);
    latest().open();
    latest().receive({ type: 'doc', topic: 'users/u1', data: ada });
    latest().drop();
    await flush(375);
    expect(sockets).toHaveLength(4);
    client.dispose();
  });

  it('does not reconnect after a policy close (1008) and serves the HTTP snapshot', async () => {
    const { client, sockets, latest } = setup();
    const fetchSnapshot = vi.fn(() => Promise.resolve<TopicDocument<'user'>>(ada));
    const listener = vi.fn();
    client.subscribe(u1, listener, { fetchSnapshot });
    await flush();
    latest().open();
    latest().drop(1008);
    await flush(0);
    expect(fetchSnapshot).toHaveBeenCalledTimes(1);
    expect(client.getSnapshot(u1)).toEqual({ data: ada });
    expect(listener).toHaveBeenCalledTimes(1);
    await flush(60_000);
    expect(sockets).toHaveLength(1);
    expect(client.connectionState).toBe('stopped');
    client.dispose();
  });

  it('fetches a first snapshot over HTTP when the socket is not open within 3 s', async () => {
    const { client, latest } = setup();
    const fetchSnapshot = vi.fn(() => Promise.resolve<TopicDocument<'user'>>(ada));
    client.subscribe(u1, () => undefined, { fetchSnapshot });
    await flush(snapshotFallbackDelayMs - 1);
    expect(fetchSnapshot).not.toHaveBeenCalled();
    await flush(1);
    expect(fetchSnapshot).toHaveBeenCalledTimes(1);
    expect(client.getSnapshot(u1)).toEqual({ data: ada });
    // The socket's document, when it finally comes, replaces the HTTP copy.
    const renamed = { ...ada, firstName: 'Augusta' };
    latest().open();
    latest().receive({ type: 'doc', topic: 'users/u1', data: renamed });
    expect(client.getSnapshot(u1)).toEqual({ data: renamed });
    client.dispose();
  });

  it('skips the HTTP snapshot when the socket answers in time', async () => {
    const { client, latest } = setup();
    const fetchSnapshot = vi.fn(() => Promise.resolve<TopicDocument<'user'>>(ada));
    client.subscribe(u1, () => undefined, { fetchSnapshot });
    await flush();
    latest().open();
    latest().receive({ type: 'doc', topic: 'users/u1', data: ada });
    await flush(10_000);
    expect(fetchSnapshot).not.toHaveBeenCalled();
    client.dispose();
  });

  it('holds a document already in hand as the first snapshot, until the socket delivers its own', async () => {
    const { client, latest } = setup();
    const fetchSnapshot = vi.fn(() => Promise.resolve<TopicDocument<'user'>>(ada));
    const listener = vi.fn();
    client.subscribe(u1, listener, { fetchSnapshot, initial: ada });
    expect(client.getSnapshot(u1)).toEqual({ data: ada });
    // No listener call for what the subscriber handed over itself, and no HTTP read: there is a snapshot.
    await flush(10_000);
    expect(listener).not.toHaveBeenCalled();
    expect(fetchSnapshot).not.toHaveBeenCalled();
    // The socket still subscribes, and its copy replaces the one in hand.
    latest().open();
    expect(latest().sent).toEqual([{ type: 'subscribe', topic: 'users/u1' }]);
    const renamed = { ...ada, displayName: 'Ada L.' };
    latest().receive({ type: 'doc', topic: 'users/u1', data: renamed });
    expect(client.getSnapshot(u1)).toEqual({ data: renamed });
    expect(listener).toHaveBeenCalledTimes(1);
    client.dispose();
  });

  it('never replaces a snapshot the topic holds with a document in hand', async () => {
    const { client, latest } = setup();
    client.subscribe(u1, () => undefined);
    await flush();
    latest().open();
    const current = { ...ada, displayName: 'Ada L.' };
    latest().receive({ type: 'doc', topic: 'users/u1', data: current });
    // A second screen subscribes with an older copy (a session read before the rename).
    client.subscribe(u1, () => undefined, { initial: ada });
    expect(client.getSnapshot(u1)).toEqual({ data: current });
    client.dispose();
  });

  it('retries a failed HTTP snapshot', async () => {
    const { client } = setup();
    const fetchSnapshot = vi
      .fn<() => Promise<TopicDocument<'user'>>>()
      .mockRejectedValueOnce(new Error('offline'))
      .mockResolvedValueOnce(null);
    client.subscribe(u1, () => undefined, { fetchSnapshot });
    await flush(snapshotFallbackDelayMs);
    expect(fetchSnapshot).toHaveBeenCalledTimes(1);
    await flush(reconnectMaxDelayMs);
    expect(fetchSnapshot).toHaveBeenCalledTimes(2);
    expect(client.getSnapshot(u1)).toEqual({ data: null });
    client.dispose();
  });

  it('fetches over HTTP at once when the server refuses a subscription', async () => {
    const { client, latest } = setup();
    const fetchSnapshot = vi.fn(() => Promise.resolve<TopicDocument<'user'>>(ada));
    client.subscribe(u1, () => undefined, { fetchSnapshot });
    await flush();
    latest().open();
    latest().receive({ type: 'error', topic: 'users/u1', code: 'forbidden', message: 'No.' });
    await flush(0);
    expect(fetchSnapshot).toHaveBeenCalledTimes(1);
    client.dispose();
  });

  it('pings on the heartbeat interval and reconnects when no pong comes back', async () => {
    const { client, sockets, latest } = setup();
    client.subscribe(u1, () => undefined);
    await flush();
    const first = latest();
    first.open();
    await flush(protocol.heartbeatIntervalMs);
    expect(first.sent).toContainEqual({ type: 'ping' });
    first.receive({ type: 'pong' });
    await flush(protocol.heartbeatTimeoutMs);
    expect(first.closedWith).toBeNull();

    await flush(protocol.heartbeatIntervalMs - protocol.heartbeatTimeoutMs);
    await flush(protocol.heartbeatTimeoutMs);
    expect(first.closedWith).not.toBeNull();
    expect(client.connectionState).toBe('waiting');
    await flush(reconnectMaxDelayMs);
    expect(sockets.length).toBeGreaterThan(1);
    client.dispose();
  });

  it('reconnect() replaces the socket at once and resubscribes (account change)', async () => {
    const { client, sockets, latest } = setup();
    client.subscribe(u1, () => undefined);
    await flush();
    const first = latest();
    first.open();
    client.reconnect();
    await flush();
    expect(first.closedWith).toBe(1000);
    expect(sockets).toHaveLength(2);
    // The old socket's late close does not schedule anything.
    first.drop(1000);
    latest().open();
    expect(latest().sent).toEqual([{ type: 'subscribe', topic: 'users/u1' }]);
    await flush(protocol.heartbeatIntervalMs - 1);
    expect(sockets).toHaveLength(2);
    client.dispose();
  });

  it('reconnect() after a policy close tries again', async () => {
    const { client, sockets, latest } = setup();
    client.subscribe(u1, () => undefined);
    await flush();
    latest().open();
    latest().drop(1008);
    client.reconnect();
    await flush();
    expect(sockets).toHaveLength(2);
    client.dispose();
  });

  describe('onSessionEnded', () => {
    const ended = { type: 'session', state: 'ended' };

    it('tells every listener when the server says the session ended', async () => {
      const { client, latest } = setup();
      const first = vi.fn();
      const second = vi.fn();
      client.onSessionEnded(first);
      client.onSessionEnded(second);
      client.subscribe(u1, () => undefined);
      await flush();
      latest().open();
      expect(first).not.toHaveBeenCalled();
      latest().receive(ended);
      expect(first).toHaveBeenCalledTimes(1);
      expect(second).toHaveBeenCalledTimes(1);
      client.dispose();
    });

    it('stops telling a listener once it unsubscribes, and unsubscribing twice is harmless', async () => {
      const { client, latest } = setup();
      const kept = vi.fn();
      const dropped = vi.fn();
      client.onSessionEnded(kept);
      const stop = client.onSessionEnded(dropped);
      client.subscribe(u1, () => undefined);
      await flush();
      latest().open();
      stop();
      stop();
      latest().receive(ended);
      expect(dropped).not.toHaveBeenCalled();
      expect(kept).toHaveBeenCalledTimes(1);
      client.dispose();
    });

    it('keeps the socket and its topics live, as a signed-out visitor’s', async () => {
      const { client, sockets, latest } = setup();
      client.onSessionEnded(() => undefined);
      const listener = vi.fn();
      client.subscribe(u1, listener);
      await flush();
      const socket = latest();
      socket.open();
      socket.receive(ended);
      expect(socket.closedWith).toBeNull();
      expect(client.connectionState).toBe('open');
      const renamed = { ...ada, firstName: 'Augusta' };
      socket.receive({ type: 'doc', topic: 'users/u1', data: renamed });
      expect(listener).toHaveBeenCalledTimes(1);
      expect(client.getSnapshot(u1)).toEqual({ data: renamed });
      // No reconnect is scheduled: nothing but the heartbeat would replace this socket.
      await flush(protocol.heartbeatIntervalMs - 1);
      expect(sockets).toHaveLength(1);
      client.dispose();
    });

    it('tells the other listeners when one of them throws', async () => {
      const { client, latest } = setup();
      const after = vi.fn();
      client.onSessionEnded(() => {
        throw new Error('listener failed');
      });
      client.onSessionEnded(after);
      client.subscribe(u1, () => undefined);
      await flush();
      latest().open();
      latest().receive(ended);
      expect(after).toHaveBeenCalledTimes(1);
      client.dispose();
    });

    it('hears nothing from a socket it has replaced', async () => {
      const { client, latest } = setup();
      const listener = vi.fn();
      client.onSessionEnded(listener);
      client.subscribe(u1, () => undefined);
      await flush();
      const old = latest();
      old.open();
      client.reconnect();
      await flush();
      old.receive(ended);
      expect(listener).not.toHaveBeenCalled();
      latest().open();
      latest().receive(ended);
      expect(listener).toHaveBeenCalledTimes(1);
      client.dispose();
    });
  });
});
