import { QueryClient } from '@tanstack/react-query';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import * as protocol from '@shared/realtime.js';
import { notificationsTopic } from '@shared/realtime-protocol.js';
import type { UnreadState } from '@shared/schemas/notification.js';
import { isApiError } from '@web/lib/api-client.js';
import {
  RealtimeClient,
  type RealtimeSocket,
  type SocketHandlers,
} from '@web/lib/realtime-client.js';
import { jsonResponse, stubFetch, stubJsonAnswer } from '@web/test/fetch-stub.js';
import { makeUnreadState } from '@web/test/notification-fixtures.js';
import { notificationKeys } from './notification-keys.js';
import {
  followUnreadState,
  getUnreadState,
  getUnreadStateQueryOptions,
  unreadBadgeText,
} from './unread-state.js';

class FakeSocket implements RealtimeSocket {
  readonly sent: unknown[] = [];

  constructor(private readonly handlers: SocketHandlers) {}

  send(data: string): void {
    this.sent.push(JSON.parse(data));
  }

  close(): void {
    // Nothing to free: the test drives the socket.
  }

  open(): void {
    this.handlers.onOpen();
  }

  receive(message: unknown): void {
    this.handlers.onMessage(JSON.stringify(message));
  }
}

/** A realtime client whose socket the test drives, as lib/realtime-client.test.ts does. */
function fakeRealtime() {
  const sockets: FakeSocket[] = [];
  const client = new RealtimeClient({
    createSocket: (_url, handlers) => {
      const socket = new FakeSocket(handlers);
      sockets.push(socket);
      return socket;
    },
    loadProtocol: () => Promise.resolve(protocol),
    url: (path) => `ws://hearth.test${path}`,
    random: () => 0.5,
    lingerMs: 0,
  });
  const socket = () => {
    const latest = sockets.at(-1);
    if (!latest) throw new Error('no socket was opened');
    return latest;
  };
  return { client, socket };
}

const uid = 'u1';
const topic = notificationsTopic(uid);
const cached = (queryClient: QueryClient) =>
  queryClient.getQueryData<UnreadState>(notificationKeys.unread(uid));

describe('getUnreadState', () => {
  it('reads GET /api/notifications/unread', async () => {
    const fetch = stubJsonAnswer(makeUnreadState({ unread: 3, newestId: '42' }));
    await expect(getUnreadState()).resolves.toEqual({ unread: 3, newestId: '42' });
    expect(fetch).toHaveBeenCalledOnce();
    const [url, init] = fetch.mock.calls[0] ?? [];
    expect(url).toBe('/api/notifications/unread');
    expect(init?.method).toBe('GET');
  });

  it('turns a missing endpoint into the not_found error the screens show', async () => {
    stubJsonAnswer({ error: { code: 'not_found', message: 'Not found.' } }, 404);
    const error: unknown = await getUnreadState().catch((caught: unknown) => caught);
    expect(isApiError(error, 'not_found')).toBe(true);
  });

  it('refuses an answer that is not an unread state', async () => {
    stubJsonAnswer({ unread: -1, newestId: null });
    const error: unknown = await getUnreadState().catch((caught: unknown) => caught);
    expect(isApiError(error, 'unexpected_response')).toBe(true);
  });

  it('keys its query by account', () => {
    expect(getUnreadStateQueryOptions('a').queryKey).toEqual(notificationKeys.unread('a'));
    expect(getUnreadStateQueryOptions('b').queryKey).not.toEqual(notificationKeys.unread('a'));
  });
});

describe('followUnreadState', () => {
  beforeEach(() => {
    vi.useFakeTimers();
  });

  afterEach(() => {
    vi.useRealTimers();
  });

  it('subscribes to notifications/{uid} and writes every document into the cache', async () => {
    const queryClient = new QueryClient();
    const { client, socket } = fakeRealtime();
    const stop = followUnreadState(queryClient, uid, client);
    await vi.advanceTimersByTimeAsync(0);
    socket().open();
    expect(socket().sent).toContainEqual({ type: 'subscribe', topic });

    socket().receive({ type: 'doc', topic, data: { unread: 2, newestId: '7' } });
    expect(cached(queryClient)).toEqual({ unread: 2, newestId: '7' });
    socket().receive({ type: 'doc', topic, data: { unread: 0, newestId: '7' } });
    expect(cached(queryClient)).toEqual({ unread: 0, newestId: '7' });

    stop();
    await vi.advanceTimersByTimeAsync(0);
    expect(socket().sent).toContainEqual({ type: 'unsubscribe', topic });
    // Another account's topic is never touched.
    expect(queryClient.getQueryData(notificationKeys.unread('u2'))).toBeUndefined();
    client.dispose();
  });

  it('drops a document that is not an unread state', async () => {
    const queryClient = new QueryClient();
    const { client, socket } = fakeRealtime();
    followUnreadState(queryClient, uid, client);
    await vi.advanceTimersByTimeAsync(0);
    socket().open();
    socket().receive({ type: 'doc', topic, data: { unread: 'many' } });
    expect(cached(queryClient)).toBeUndefined();
    client.dispose();
  });

  it('lets a live document win over an HTTP answer still on its way', async () => {
    const queryClient = new QueryClient();
    const { client, socket } = fakeRealtime();
    let answer: (response: Response) => void = () => undefined;
    stubFetch(
      () =>
        new Promise<Response>((resolve) => {
          answer = resolve;
        }),
    );
    const read = queryClient.query(getUnreadStateQueryOptions(uid)).catch(() => undefined);
    await vi.advanceTimersByTimeAsync(0);
    followUnreadState(queryClient, uid, client);
    await vi.advanceTimersByTimeAsync(0);
    socket().open();
    socket().receive({ type: 'doc', topic, data: { unread: 5, newestId: '9' } });
    // The read started before the change; its older count must not overwrite the live one.
    answer(jsonResponse({ unread: 4, newestId: '8' }));
    await read;
    await vi.advanceTimersByTimeAsync(0);
    expect(cached(queryClient)).toEqual({ unread: 5, newestId: '9' });
    client.dispose();
  });

  it('leaves the count the query read alone while the socket is away, asking nothing more', async () => {
    const queryClient = new QueryClient();
    queryClient.setQueryData(notificationKeys.unread(uid), { unread: 1, newestId: '3' });
    const { client } = fakeRealtime();
    const fetch = stubJsonAnswer({ unread: 5, newestId: '9' });
    followUnreadState(queryClient, uid, client);
    await vi.advanceTimersByTimeAsync(10_000);
    // One read of the count is the query's; a second, in the socket's stead, would only repeat it (and,
    // for a session revoked elsewhere, sign the tab out before its own next request).
    expect(fetch).not.toHaveBeenCalled();
    expect(cached(queryClient)).toEqual({ unread: 1, newestId: '3' });
    client.dispose();
  });

  it('starts from a document the tab already holds', async () => {
    const queryClient = new QueryClient();
    const { client, socket } = fakeRealtime();
    const first = followUnreadState(new QueryClient(), uid, client);
    await vi.advanceTimersByTimeAsync(0);
    socket().open();
    socket().receive({ type: 'doc', topic, data: { unread: 8, newestId: '11' } });
    followUnreadState(queryClient, uid, client);
    expect(cached(queryClient)).toEqual({ unread: 8, newestId: '11' });
    first();
    client.dispose();
  });
});

describe('unreadBadgeText', () => {
  it('shows nothing for none, the number up to 99, then 99+', () => {
    expect(unreadBadgeText(0)).toBeNull();
    expect(unreadBadgeText(1)).toBe('1');
    expect(unreadBadgeText(99)).toBe('99');
    expect(unreadBadgeText(100)).toBe('99+');
    expect(unreadBadgeText(5_000)).toBe('99+');
  });
});
