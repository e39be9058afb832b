import { beforeAll, describe, expect, it, vi } from 'vitest';
import { notificationsTopic } from '../../../shared/realtime-protocol.js';
import { unreadStateSchema, type UnreadState } from '../../../shared/schemas/notification.js';
import { postViewSchema } from '../../../shared/schemas/post.js';
import { databaseTargets, send, signUp, type RealtimeClient } from '../../test/harness.js';
import { receivedDocuments, setUpListeningApp } from '../../test/realtime-suite.js';

type Person = Awaited<ReturnType<typeof signUp>>;

describe.each(databaseTargets)('the notifications topic on $name', (target) => {
  const t = setUpListeningApp(target);
  let people: Person[];
  let next = 0;
  const fresh = (): Person => {
    const person = people[next];
    next += 1;
    if (!person) throw new Error('ran out of people: sign more up in beforeAll');
    return person;
  };

  beforeAll(async () => {
    people = await Promise.all(Array.from({ length: 15 }, () => signUp(t.app)));
  });

  /** Subscribes and returns the snapshot, which must be the topic's. */
  async function subscribe(client: RealtimeClient, topic: string): Promise<UnreadState> {
    client.send({ type: 'subscribe', topic });
    const message = await client.next();
    if (message.type !== 'doc' || message.topic !== topic) {
      throw new Error(`expected the ${topic} snapshot, got ${JSON.stringify(message)}`);
    }
    return unreadStateSchema.parse(message.data);
  }

  /** The unread states a socket received since it was last read, in order. */
  async function received(client: RealtimeClient, topic: string): Promise<UnreadState[]> {
    const documents = await receivedDocuments(client);
    return (documents.get(topic) ?? []).map((data) => unreadStateSchema.parse(data));
  }

  async function post(person: Person, body: string): Promise<string> {
    const response = await send(t.app, 'POST', '/api/posts', { body }, { cookie: person.cookie });
    expect(response.statusCode, response.body).toBe(201);
    return postViewSchema.parse(response.json()).id;
  }

  /** A post of `person`'s, and a tab of theirs following their bell, which shows nothing unread yet. */
  async function watching(person: Person, body: string) {
    const topic = notificationsTopic(person.user.uid);
    const postId = await post(person, body);
    const tab = await t.connect({ cookie: person.cookie });
    expect(await subscribe(tab, topic)).toEqual({ unread: 0, newestId: null });
    return { topic, postId, tab };
  }

  it('tells every open tab of the account of a new notification, a read mark and a withdrawn like', async () => {
    const [me, fan] = [fresh(), fresh()];
    const topic = notificationsTopic(me.user.uid);
    const postId = await post(me, 'Watch the bell');
    const tabs = [await t.connect({ cookie: me.cookie }), await t.connect({ cookie: me.cookie })];
    for (const tab of tabs)
      expect(await subscribe(tab, topic)).toEqual({ unread: 0, newestId: null });

    const like = await send(t.app, 'PUT', `/api/posts/${postId}/like`, undefined, {
      cookie: fan.cookie,
    });
    expect(like.statusCode, like.body).toBe(200);
    const [first, second] = tabs as [RealtimeClient, RealtimeClient];
    const [afterLike] = await received(first, topic);
    expect(afterLike?.unread).toBe(1);
    expect(afterLike?.newestId).toMatch(/^\d+$/);
    expect(await received(second, topic)).toEqual([afterLike]);

    const read = await send(t.app, 'POST', '/api/notifications/read', {}, { cookie: me.cookie });
    expect(read.statusCode, read.body).toBe(200);
    for (const tab of tabs) {
      expect(await received(tab, topic)).toEqual([{ unread: 0, newestId: afterLike?.newestId }]);
    }

    // Another like, then unliked: the bell goes up and back down.
    const other = fresh();
    const cookie = { cookie: other.cookie };
    expect(
      (await send(t.app, 'PUT', `/api/posts/${postId}/like`, undefined, cookie)).statusCode,
    ).toBe(200);
    expect(
      (await send(t.app, 'DELETE', `/api/posts/${postId}/like`, undefined, cookie)).statusCode,
    ).toBe(200);
    const states = await received(first, topic);
    expect(states.map((state) => state.unread)).toEqual([1, 0]);
    expect(states.at(-1)?.newestId).toBe(afterLike?.newestId);
  });

  it('reads an unread state only where a tab follows it, and once for a burst of notifications', async () => {
    const [me, away, fan] = [fresh(), fresh(), fresh()];
    const topic = notificationsTopic(me.user.uid);
    const mine = await post(me, 'Liked while I watch');
    const theirs = await post(away, 'Liked while nobody watches');
    const tab = await t.connect({ cookie: me.cookie });
    expect(await subscribe(tab, topic)).toEqual({ unread: 0, newestId: null });
    const reads = vi.spyOn(t.app.services.notifications, 'unreadState');
    try {
      const like = (postId: string) =>
        send(t.app, 'PUT', `/api/posts/${postId}/like`, undefined, { cookie: fan.cookie });
      // Nobody follows the other account's bell: its notification is saved, and its state never read.
      expect((await like(theirs)).statusCode).toBe(200);
      expect(reads).not.toHaveBeenCalled();
      const list = await send(t.app, 'GET', '/api/notifications', undefined, {
        cookie: away.cookie,
      });
      expect(list.json()).toMatchObject({ items: [{ kind: 'like' }] });

      // Five notifications at once (a like, then four mentions): the tab ends on the last state, read
      // at most once per notification and fewer when they overlap.
      reads.mockClear();
      const answers = await Promise.all([
        like(mine),
        ...[1, 2, 3, 4].map((n) =>
          send(
            t.app,
            'POST',
            '/api/posts',
            { body: `Mention ${n} @${me.user.username}` },
            {
              cookie: fan.cookie,
            },
          ),
        ),
      ]);
      expect(answers.map((answer) => answer.statusCode)).toEqual([200, 201, 201, 201, 201]);
      const states = await received(tab, topic);
      expect(states.at(-1)?.unread).toBe(5);
      expect(states.length).toBeGreaterThanOrEqual(1);
      expect(reads.mock.calls.length).toBe(states.length);
      expect(reads.mock.calls.length).toBeLessThanOrEqual(5);
      expect(reads.mock.calls.every(([uid]) => uid === me.user.uid)).toBe(true);
    } finally {
      reads.mockRestore();
    }
  });

  it('drops a read of the bell that a newer state overtook: marked read while it was being read', async () => {
    const [me, fan] = [fresh(), fresh()];
    const { topic, postId, tab } = await watching(me, 'Marked read mid-read');
    const service = t.app.services.notifications;
    const original = service.unreadState.bind(service);
    let release: () => void = () => undefined;
    const held = new Promise<void>((resolve) => {
      release = resolve;
    });
    // The like's read of the bell sees one unread, then is held until the account has marked it read.
    const reads = vi.spyOn(service, 'unreadState').mockImplementationOnce(async (uid) => {
      const state = await original(uid);
      await held;
      return state;
    });
    try {
      const like = send(t.app, 'PUT', `/api/posts/${postId}/like`, undefined, {
        cookie: fan.cookie,
      });
      await vi.waitFor(() => expect(reads).toHaveBeenCalledTimes(1));
      const read = await send(t.app, 'POST', '/api/notifications/read', {}, { cookie: me.cookie });
      expect(read.statusCode, read.body).toBe(200);
      release();
      expect((await like).statusCode).toBe(200);
      await reads.mock.results[0]?.value;
      await new Promise((resolve) => setTimeout(resolve, 50));
      const states = await received(tab, topic);
      expect(states.map((state) => state.unread)).toEqual([0]);
    } finally {
      release();
      reads.mockRestore();
    }
  });

  it('republishes the bell when a deleted post takes its notifications with it', async () => {
    const [me, other] = [fresh(), fresh()];
    const topic = notificationsTopic(me.user.uid);
    const theirs = await post(other, `Hello @${me.user.username}`);
    const tab = await t.connect({ cookie: me.cookie });
    expect((await subscribe(tab, topic)).unread).toBe(1);
    const deleted = await send(t.app, 'DELETE', `/api/posts/${theirs}`, undefined, {
      cookie: other.cookie,
    });
    expect(deleted.statusCode, deleted.body).toBe(204);
    expect(await received(tab, topic)).toEqual([{ unread: 0, newestId: null }]);
  });

  it('lowers the bell of everyone a deleted account had notified', async () => {
    const [me, leaving] = [fresh(), fresh()];
    const { topic, postId, tab } = await watching(me, 'Soon liked by someone who leaves');
    const cookie = { cookie: leaving.cookie };
    for (const [method, url] of [
      ['PUT', `/api/posts/${postId}/like`],
      ['PUT', `/api/users/${me.user.uid}/follow`],
    ] as const) {
      expect((await send(t.app, method, url, undefined, cookie)).statusCode).toBe(200);
    }
    expect((await received(tab, topic)).at(-1)?.unread).toBe(2);

    const gone = await send(
      t.app,
      'POST',
      '/api/account/delete',
      { password: leaving.input.password },
      cookie,
    );
    expect(gone.statusCode, gone.body).toBe(200);
    expect(await received(tab, topic)).toEqual([{ unread: 0, newestId: null }]);
    const list = await send(t.app, 'GET', '/api/notifications', undefined, { cookie: me.cookie });
    expect(list.json()).toEqual({ items: [], nextCursor: null });
  });

  it('refuses the topic to other accounts and to signed-out sockets', async () => {
    const [me, stranger] = [fresh(), fresh()];
    const topic = notificationsTopic(me.user.uid);
    for (const [cookie, code] of [
      [stranger.cookie, 'forbidden'],
      [undefined, 'unauthenticated'],
    ] as const) {
      const client = await t.connect({ cookie });
      client.send({ type: 'subscribe', topic });
      expect(await client.next()).toMatchObject({ type: 'error', topic, code });
    }
    // Nothing about my notifications reaches the stranger's socket afterwards either.
    const strangerSocket = await t.connect({ cookie: stranger.cookie });
    await post(stranger, `Hi @${me.user.username}`);
    expect(await strangerSocket.flush()).toEqual([]);
  });
});
