import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { deletionFanOut } from '../../../shared/limits.js';
import { feedTopic, postTopic, userTopic, type ServerMessage } from '../../../shared/realtime.js';
import { postSchema, postViewSchema, type Post } from '../../../shared/schemas/post.js';
import { userDocumentSchema, type UserDocument } from '../../../shared/schemas/user.js';
import type { DatabaseHandle } from '../../db/database.js';
import {
  connectRealtime,
  createInstancePair,
  createTestApp,
  databaseTargets,
  listen,
  openAppDatabase,
  send,
  signUp,
  testRedisUrl,
  type RealtimeClient,
  type TestApp,
} from '../../test/harness.js';
import { AccountRepository } from './account.repository.js';
import { deletionNotices } from './account.service.js';

type Person = Awaited<ReturnType<typeof signUp>>;
type App = TestApp['app'];

/** Sends a request that must succeed, as `person`. */
async function ok(
  app: App,
  person: Person,
  method: 'POST' | 'PUT',
  url: string,
  body?: unknown,
): Promise<{ id: string }> {
  const response = await send(app, method, url, body, { cookie: person.cookie });
  expect(response.statusCode, `${method} ${url}: ${response.body}`).toBeLessThan(300);
  return response.json<{ id: string }>();
}

async function postDocument(app: App, postId: string): Promise<Post> {
  const response = await send(app, 'GET', `/api/posts/${postId}`);
  expect(response.statusCode, response.body).toBe(200);
  return postSchema.parse(postViewSchema.parse(response.json()));
}

async function userDocument(app: App, uid: string): Promise<UserDocument> {
  const response = await send(app, 'GET', `/api/users/${uid}`);
  expect(response.statusCode, response.body).toBe(200);
  return userDocumentSchema.parse(response.json());
}

async function deleteAccount(app: App, person: Person): Promise<void> {
  const response = await send(
    app,
    'POST',
    '/api/account/delete',
    { password: person.input.password },
    { cookie: person.cookie },
  );
  expect(response.statusCode, response.body).toBe(200);
}

/** Subscribes to each topic and reads its first document. */
async function watch(client: RealtimeClient, topics: string[]): Promise<void> {
  for (const topic of topics) {
    client.send({ type: 'subscribe', topic });
    const message = await client.next();
    expect(message, JSON.stringify(message)).toMatchObject({ type: 'doc', topic });
  }
}

/** Every document the server sent since the last read, by topic in arrival order. */
async function received(client: RealtimeClient): Promise<Map<string, unknown[]>> {
  const byTopic = new Map<string, unknown[]>();
  for (const message of await client.flush()) {
    if (message.type !== 'doc') continue;
    const doc: Extract<ServerMessage, { type: 'doc' }> = message;
    byTopic.set(doc.topic, [...(byTopic.get(doc.topic) ?? []), doc.data]);
  }
  return byTopic;
}

/**
 * The leaving account's activity on the staying author's post: a like, a comment, a reply in the author's
 * thread and a like of it; both follow each other; the author comments on the leaving account's own post.
 */
async function activity(app: App, leaving: Person, staying: Person) {
  const post = await ok(app, staying, 'POST', '/api/posts', { body: 'Stays, with company' });
  const thread = await ok(app, staying, 'POST', `/api/posts/${post.id}/comments`, {
    body: 'The author opens',
  });
  const own = await ok(app, leaving, 'POST', '/api/posts', { body: 'Goes with its author' });
  await ok(app, staying, 'POST', `/api/posts/${own.id}/comments`, { body: 'Goes too' });
  await ok(app, leaving, 'PUT', `/api/posts/${post.id}/like`);
  const comment = await ok(app, leaving, 'POST', `/api/posts/${post.id}/comments`, {
    body: 'Leaving soon',
  });
  await ok(app, leaving, 'POST', `/api/posts/${post.id}/comments`, {
    body: 'A reply that leaves',
    parentId: thread.id,
  });
  await ok(app, leaving, 'PUT', `/api/comments/${thread.id}/like`);
  await ok(app, leaving, 'PUT', `/api/users/${staying.user.uid}/follow`);
  await ok(app, staying, 'PUT', `/api/users/${leaving.user.uid}/follow`);
  return { postId: post.id, threadId: thread.id, ownPostId: own.id, commentId: comment.id };
}

describe.each(databaseTargets)('account deletion reaches open pages on $name', (target) => {
  let t: TestApp;
  let baseUrl: string;
  let database: DatabaseHandle;
  const open: RealtimeClient[] = [];

  beforeAll(async () => {
    t = await createTestApp(target);
    baseUrl = await listen(t);
    database = openAppDatabase(t);
  });
  afterEach(async () => {
    vi.restoreAllMocks();
    await Promise.all(open.splice(0).map((client) => client.close()));
  });
  afterAll(async () => {
    await database.close();
    await t.close();
  });

  async function connect(cookie?: string): Promise<RealtimeClient> {
    const client = await connectRealtime(baseUrl, { cookie });
    open.push(client);
    return client;
  }

  it("sends the lower counts, a new comments revision, the posts' deletions and null for the account", async () => {
    const [leaving, staying] = await Promise.all([signUp(t.app), signUp(t.app)]);
    const { postId, threadId, ownPostId, commentId } = await activity(t.app, leaving, staying);
    const postBefore = await postDocument(t.app, postId);
    expect(postBefore).toMatchObject({ likeCount: 1, commentCount: 3 });
    const stayingBefore = await userDocument(t.app, staying.user.uid);
    expect(stayingBefore.counts).toMatchObject({ followers: 1, following: 1 });

    const client = await connect(staying.cookie);
    await watch(client, [
      feedTopic,
      postTopic(postId),
      postTopic(ownPostId),
      userTopic(staying.user.uid),
      userTopic(leaving.user.uid),
    ]);
    await deleteAccount(t.app, leaving);
    const messages = await received(client);

    const postAfter = await postDocument(t.app, postId);
    expect(postAfter).toMatchObject({ likeCount: 0, commentCount: 1 });
    expect(postAfter.commentsRevision).toBeGreaterThan(postBefore.commentsRevision);
    expect(messages.get(postTopic(postId))).toEqual([postAfter]);
    expect(messages.get(postTopic(ownPostId))).toEqual([null]);
    const head = (await send(t.app, 'GET', '/api/feed?limit=1')).json<{
      items: { id: string }[];
    }>().items[0]?.id;
    expect(messages.get(feedTopic)).toEqual(
      expect.arrayContaining([
        { head, change: { kind: 'updated', post: postAfter } },
        { head, change: { kind: 'deleted', postId: ownPostId } },
      ]),
    );
    expect(messages.get(feedTopic)).toHaveLength(2);
    const stayingAfter = userDocumentSchema.parse(
      messages.get(userTopic(staying.user.uid))?.at(-1),
    );
    expect(stayingAfter).toEqual(await userDocument(t.app, staying.user.uid));
    expect(stayingAfter.counts).toMatchObject({
      followers: stayingBefore.counts.followers - 1,
      following: stayingBefore.counts.following - 1,
    });
    expect(messages.get(userTopic(leaving.user.uid))).toEqual([null]);

    const threads = (await send(t.app, 'GET', `/api/posts/${postId}/comments`)).json<{
      items: { id: string; likeCount: number; replyCount: number; replies: unknown[] }[];
    }>().items;
    expect(threads.map((thread) => thread.id)).toEqual([threadId]);
    expect(threads.map((thread) => thread.id)).not.toContain(commentId);
    expect(threads[0]).toMatchObject({ likeCount: 0, replyCount: 0, replies: [] });
  });

  it('sends a new comments revision to a post whose comments it only liked', async () => {
    const [leaving, staying] = await Promise.all([signUp(t.app), signUp(t.app)]);
    const post = await ok(t.app, staying, 'POST', '/api/posts', { body: 'Liked below' });
    const comment = await ok(t.app, staying, 'POST', `/api/posts/${post.id}/comments`, {
      body: 'Worth a like',
    });
    await ok(t.app, leaving, 'PUT', `/api/comments/${comment.id}/like`);
    const before = await postDocument(t.app, post.id);
    const client = await connect();
    await watch(client, [postTopic(post.id)]);
    await deleteAccount(t.app, leaving);

    const [after] = (await received(client)).get(postTopic(post.id)) ?? [];
    expect(postSchema.parse(after).commentsRevision).toBeGreaterThan(before.commentsRevision);
    expect(postSchema.parse(after)).toMatchObject({ likeCount: 0, commentCount: 1 });
    const threads = (await send(t.app, 'GET', `/api/posts/${post.id}/comments`)).json<{
      items: { likeCount: number }[];
    }>().items;
    expect(threads).toMatchObject([{ likeCount: 0 }]);
  });

  it('deletes the account even when telling open pages fails', async () => {
    const [leaving, staying] = await Promise.all([signUp(t.app), signUp(t.app)]);
    const { postId } = await activity(t.app, leaving, staying);
    const failing = vi
      .spyOn(t.app.services.posts, 'publishMany')
      .mockRejectedValue(new Error('the database went away'));
    await deleteAccount(t.app, leaving);
    expect(failing).toHaveBeenCalled();
    expect((await send(t.app, 'GET', `/api/users/${leaving.user.uid}`)).statusCode).toBe(404);
    expect(await postDocument(t.app, postId)).toMatchObject({ likeCount: 0, commentCount: 1 });
  });

  it('gathers at most the bound of posts and people, newest first, and still fixes every count', async () => {
    const [leaving, staying, other] = await Promise.all([
      signUp(t.app),
      signUp(t.app),
      signUp(t.app),
    ]);
    const posts: string[] = [];
    for (const body of ['First', 'Second', 'Third']) {
      posts.push((await ok(t.app, staying, 'POST', '/api/posts', { body })).id);
    }
    const own = [];
    for (const body of ['Mine', 'Mine too']) {
      own.push((await ok(t.app, leaving, 'POST', '/api/posts', { body })).id);
    }
    for (const postId of posts) await ok(t.app, leaving, 'PUT', `/api/posts/${postId}/like`);
    await ok(t.app, leaving, 'PUT', `/api/users/${staying.user.uid}/follow`);
    await ok(t.app, other, 'PUT', `/api/users/${leaving.user.uid}/follow`);

    const deleted = await new AccountRepository(database.db).deleteAccount(
      leaving.user.uid,
      new Date(Date.now() + 60_000),
      { posts: 2, users: 1 },
    );
    expect(deleted?.fanOut).toEqual({
      ownPosts: [own[1], own[0]],
      touchedPosts: [posts[2], posts[1]],
      relatedUsers: [other.user.uid],
      // Its likes and its follow notified the one person; other's follow of it went to itself.
      notifiedUsers: [staying.user.uid],
    });
    for (const postId of posts) {
      expect((await postDocument(t.app, postId)).likeCount).toBe(0);
    }
    expect((await userDocument(t.app, staying.user.uid)).counts.followers).toBe(0);
    expect((await userDocument(t.app, other.user.uid)).counts.following).toBe(0);
  });
});

describe.runIf(testRedisUrl)('account deletion across instances', () => {
  it.each(databaseTargets)(
    'reaches a socket on the other instance on $name',
    async (target) => {
      const pair = await createInstancePair(target, testRedisUrl ?? '');
      try {
        const baseUrl = await listen(pair.b);
        const [leaving, staying] = await Promise.all([signUp(pair.a.app), signUp(pair.a.app)]);
        const { postId } = await activity(pair.a.app, leaving, staying);
        const client = await connectRealtime(baseUrl);
        try {
          await watch(client, [postTopic(postId), userTopic(staying.user.uid)]);
          await deleteAccount(pair.a.app, leaving);
          const post = postSchema.parse(await nextDocument(client, postTopic(postId)));
          expect(post).toMatchObject({ likeCount: 0, commentCount: 1 });
          const user = userDocumentSchema.parse(
            await nextDocument(client, userTopic(staying.user.uid)),
          );
          expect(user.counts).toMatchObject({ followers: 0, following: 0 });
        } finally {
          await client.close();
        }
      } finally {
        await pair.close();
      }
    },
    30_000,
  );
});

/** The next document of `topic`, skipping those of other topics (Redis delivers asynchronously). */
async function nextDocument(client: RealtimeClient, topic: string): Promise<unknown> {
  for (;;) {
    const message = await client.next();
    if (message.type === 'doc' && message.topic === topic) return message.data;
  }
}

describe('deletionNotices', () => {
  const fanOut = {
    ownPosts: ['9', '8', '7'],
    touchedPosts: ['6', '5', '4', '3'],
    relatedUsers: ['u1', 'u2', 'u3'],
    notifiedUsers: ['n1', 'n2', 'n3'],
  };

  it('sends the account, the newest posts with feed changes, the people, older posts, then bells', () => {
    expect(deletionNotices('gone', fanOut, { feedPosts: 2, batch: 2 })).toEqual([
      { kind: 'users', ids: ['gone'] },
      { kind: 'posts', ids: ['6', '5'], feed: true },
      { kind: 'posts', ids: ['9', '8'], feed: true },
      { kind: 'users', ids: ['u1', 'u2'] },
      { kind: 'users', ids: ['u3'] },
      { kind: 'posts', ids: ['4', '3'], feed: false },
      { kind: 'posts', ids: ['7'], feed: false },
      { kind: 'bells', ids: ['n1', 'n2'] },
      { kind: 'bells', ids: ['n3'] },
    ]);
  });

  it('sends no batch larger than the bound, and nothing but the account when it did nothing', () => {
    const notices = deletionNotices('gone', fanOut, deletionFanOut);
    for (const notice of notices)
      expect(notice.ids.length).toBeLessThanOrEqual(deletionFanOut.batch);
    expect(
      deletionNotices(
        'gone',
        { ownPosts: [], touchedPosts: [], relatedUsers: [], notifiedUsers: [] },
        deletionFanOut,
      ),
    ).toEqual([{ kind: 'users', ids: ['gone'] }]);
  });
});
