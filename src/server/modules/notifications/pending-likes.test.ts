import type { LightMyRequestResponse } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { limits } from '../../../shared/limits.js';
import {
  notificationPageSchema,
  unreadStateSchema,
  type NotificationGroup,
} from '../../../shared/schemas/notification.js';
import { commentSchema, postViewSchema } from '../../../shared/schemas/post.js';
import type { DatabaseHandle } from '../../db/database.js';
import { toIsoString } from '../../db/values.js';
import {
  createTestApp,
  databaseTargets,
  openAppDatabase,
  send,
  signUp,
  type TestApp,
} from '../../test/harness.js';
import { NotificationsRepository, pendingLikesBatch } from './notifications.repository.js';

type Person = Awaited<ReturnType<typeof signUp>>;
type Method = 'GET' | 'POST' | 'PUT' | 'DELETE';

/**
 * A like's notification is written when its author's bell is next read (ADR 0055): seen from the author,
 * it is there with the like's time, in the order of events, as when it was written with the like.
 */
describe.each(databaseTargets)('likes told when the bell is read, on $name', (target) => {
  let t: TestApp;
  let database: DatabaseHandle;

  const call = (method: Method, url: string, person: Person, body?: unknown) =>
    send(t.app, method, url, body, { cookie: person.cookie });

  function ok(response: LightMyRequestResponse, status = 200): unknown {
    expect(response.statusCode, response.body).toBe(status);
    return response.json();
  }

  async function post(author: Person, body: string): Promise<string> {
    return postViewSchema.parse(ok(await call('POST', '/api/posts', author, { body }), 201)).id;
  }

  async function list(person: Person): Promise<NotificationGroup[]> {
    return notificationPageSchema.parse(ok(await call('GET', '/api/notifications', person))).items;
  }

  async function unread(person: Person) {
    return unreadStateSchema.parse(ok(await call('GET', '/api/notifications/unread', person)));
  }

  /** The account's notification rows, oldest first. */
  async function rowsOf(person: Person) {
    return database.db
      .selectFrom('notifications')
      .select(['kind', 'actorId', 'postId', 'createdAt'])
      .where('recipientId', '=', person.user.uid)
      .orderBy('id')
      .execute();
  }

  async function pendingFor(person: Person): Promise<number> {
    const rows = await database.db
      .selectFrom('post_likes')
      .select('id')
      .where('pendingRecipientId', '=', person.user.uid)
      .execute();
    return rows.length;
  }

  beforeAll(async () => {
    t = await createTestApp(target);
    database = openAppDatabase(t);
  });
  afterAll(async () => {
    await database.close();
    await t.close();
  });

  it("writes a like's notification when its author's bell is read, with the like's time", async () => {
    const [author, fan] = await Promise.all([signUp(t.app), signUp(t.app)]);
    const postId = await post(author, 'Something to like');
    ok(await call('PUT', `/api/posts/${postId}/like`, fan));
    expect(await rowsOf(author)).toEqual([]);
    expect(await pendingFor(author)).toBe(1);
    const like = await database.db
      .selectFrom('post_likes')
      .select('createdAt')
      .where('postId', '=', postId)
      .executeTakeFirstOrThrow();

    expect(await unread(author)).toMatchObject({ unread: 1 });
    expect(await pendingFor(author)).toBe(0);
    const [group, ...others] = await list(author);
    expect(others).toEqual([]);
    expect(group).toMatchObject({
      kind: 'like',
      unread: true,
      actorCount: 1,
      actors: [{ uid: fan.user.uid }],
      post: { id: postId },
      createdAt: toIsoString(like.createdAt),
    });
    // Read again, nothing more is written.
    expect((await rowsOf(author)).map((row) => row.kind)).toEqual(['like']);
  });

  it('keeps the order of events: a waiting like is written before a later notification', async () => {
    const [author, fan, commenter] = await Promise.all([
      signUp(t.app),
      signUp(t.app),
      signUp(t.app),
    ]);
    const postId = await post(author, 'Liked, then commented on');
    ok(await call('PUT', `/api/posts/${postId}/like`, fan));
    const response = await call('POST', `/api/posts/${postId}/comments`, commenter, {
      body: 'A comment after the like',
    });
    commentSchema.parse(ok(response, 201));
    // The comment's notification was written with it, and the like's just before it.
    expect(await pendingFor(author)).toBe(0);
    expect((await rowsOf(author)).map((row) => [row.kind, row.actorId])).toEqual([
      ['like', fan.user.uid],
      ['comment', commenter.user.uid],
    ]);
    expect((await list(author)).map((group) => group.kind)).toEqual(['comment', 'like']);
  });

  it('writes nothing for a like between people who block each other now, or for an undone like', async () => {
    const [author, blocked, fickle] = await Promise.all([
      signUp(t.app),
      signUp(t.app),
      signUp(t.app),
    ]);
    const postId = await post(author, 'Liked by the wrong people');
    ok(await call('PUT', `/api/posts/${postId}/like`, blocked));
    ok(await call('PUT', `/api/posts/${postId}/like`, fickle));
    ok(await call('DELETE', `/api/posts/${postId}/like`, fickle));
    ok(await call('PUT', `/api/users/${blocked.user.uid}/block`, author));
    expect(await pendingFor(author)).toBe(1);

    expect(await unread(author)).toMatchObject({ unread: 0 });
    expect(await list(author)).toEqual([]);
    expect(await rowsOf(author)).toEqual([]);
    expect(await pendingFor(author)).toBe(0);
  });

  it('writes a backlog in batches, oldest first, and two reads at once write each like once', async () => {
    const [author, fan] = await Promise.all([signUp(t.app), signUp(t.app)]);
    const backlog = pendingLikesBatch + 3;
    const start = Date.parse('2026-01-01T00:00:00.000Z');
    const at = (index: number) => new Date(start + index * 1_000).toISOString();
    const posts = await database.db
      .insertInto('posts')
      .values(
        Array.from({ length: backlog }, (_, index) => ({
          authorId: author.user.uid,
          body: `Backlog post ${String(index)}`,
          createdAt: at(index),
        })),
      )
      .returning('id')
      .execute();
    await database.db
      .insertInto('post_likes')
      .values(
        posts.map((row, index) => ({
          postId: row.id,
          userId: fan.user.uid,
          createdAt: at(index),
          pendingRecipientId: author.user.uid,
        })),
      )
      .execute();

    const repository = new NotificationsRepository(database.db);
    const [first, second] = await Promise.all([
      repository.writePendingLikes(author.user.uid),
      repository.writePendingLikes(author.user.uid),
    ]);
    expect(first.length + second.length).toBe(backlog);
    expect(await pendingFor(author)).toBe(0);
    const rows = await rowsOf(author);
    expect(rows).toHaveLength(backlog);
    // Ids follow the likes' order: each notification's time is its like's.
    expect(rows.map((row) => toIsoString(row.createdAt))).toEqual(
      Array.from({ length: backlog }, (_, index) => at(index)),
    );
    expect(await unread(author)).toMatchObject({ unread: limits.notifications.unreadCountMax });
  });
});
