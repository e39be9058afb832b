import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { feedTopic, postTopic, userTopic } from '../../../shared/realtime.js';
import {
  feedSignalSchema,
  postPageSchema,
  postSchema,
  postViewSchema,
  type Post,
  type PostView,
} from '../../../shared/schemas/post.js';
import { userDocumentSchema } from '../../../shared/schemas/user.js';
import {
  databaseTargets,
  expectError,
  send,
  signUp,
  type RealtimeClient,
} from '../../test/harness.js';
import { receivedDocuments, setUpListeningApp } from '../../test/realtime-suite.js';
import { ReadCache } from '../../cache/read-cache.js';
import { PostsRepository } from './posts.repository.js';

type Person = Awaited<ReturnType<typeof signUp>>;

/** The public document of a post: what `posts/{id}` and the feed carry (no per-viewer `liked`). */
const documentOf = (view: PostView): Post => postSchema.parse(view);

describe.each(databaseTargets)('posts realtime on $name', (target) => {
  const t = setUpListeningApp(target);
  let author: Person;
  let reader: Person;

  beforeAll(async () => {
    [author, reader] = await Promise.all([signUp(t.app), signUp(t.app)]);
  });
  afterEach(() => {
    vi.restoreAllMocks();
  });

  /** Subscribes and returns the first document, which must be the topic's. */
  async function subscribe(client: RealtimeClient, topic: string): Promise<unknown> {
    client.send({ type: 'subscribe', topic });
    const message = await client.next();
    if (message.type !== 'doc' || message.topic !== topic) {
      throw new Error(`expected the ${topic} snapshot, got ${JSON.stringify(message)}`);
    }
    return message.data;
  }

  /** A socket watching the feed, one post and the author's profile, with their snapshots read. */
  async function watcher(postId?: string, cookie?: string) {
    const client = await t.connect({ cookie });
    await subscribe(client, feedTopic);
    await subscribe(client, userTopic(author.user.uid));
    if (postId) await subscribe(client, postTopic(postId));
    return client;
  }

  async function createPost(person: Person, body: string): Promise<PostView> {
    const response = await send(t.app, 'POST', '/api/posts', { body }, { cookie: person.cookie });
    expect(response.statusCode, response.body).toBe(201);
    return postViewSchema.parse(response.json());
  }

  async function currentDocument(postId: string): Promise<Post> {
    const response = await send(t.app, 'GET', `/api/posts/${postId}`);
    expect(response.statusCode, response.body).toBe(200);
    return documentOf(postViewSchema.parse(response.json()));
  }

  async function newestPostId(): Promise<string | null> {
    const response = await send(t.app, 'GET', '/api/feed?limit=1');
    return postPageSchema.parse(response.json()).items[0]?.id ?? null;
  }

  async function postCount(): Promise<number> {
    const response = await send(t.app, 'GET', `/api/users/${author.user.uid}`);
    return userDocumentSchema.parse(response.json()).counts.posts;
  }

  it('answers a feed subscription with the newest post id and no change', async () => {
    const client = await t.connect();
    expect(feedSignalSchema.parse(await subscribe(client, feedTopic))).toEqual({
      head: await newestPostId(),
      change: null,
    });
    const post = await createPost(author, 'A head to point at');
    const later = await t.connect({ cookie: reader.cookie });
    expect(await subscribe(later, feedTopic)).toEqual({ head: post.id, change: null });
  });

  it('answers a post subscription with its document, or null for an unknown post', async () => {
    const post = await createPost(author, 'Watched from the start');
    const client = await t.connect();
    expect(await subscribe(client, postTopic(post.id))).toEqual(documentOf(post));
    expect(await subscribe(client, postTopic('9999999999'))).toBeNull();
  });

  it("sends a new post to every feed watcher, and the author's new post count", async () => {
    const watchers = [await watcher(), await watcher(undefined, reader.cookie)];
    const before = await postCount();
    const post = await createPost(author, 'Fresh off the press #live');
    for (const client of watchers) {
      const messages = await receivedDocuments(client);
      expect(messages.get(feedTopic)).toEqual([
        { head: post.id, change: { kind: 'created', post: documentOf(post) } },
      ]);
      const profile = userDocumentSchema.parse(messages.get(userTopic(author.user.uid))?.at(-1));
      expect(profile.counts.posts).toBe(before + 1);
      // Built from the write's own read, the published document is the one a read of the profile gives.
      const read = await send(t.app, 'GET', `/api/users/${author.user.uid}`);
      expect(profile).toEqual(userDocumentSchema.parse(read.json()));
    }
  });

  it('sends the new like count to the post and the feed on like and unlike', async () => {
    const post = await createPost(author, 'Like me live');
    const client = await watcher(post.id);
    for (const [method, likeCount] of [
      ['PUT', 1],
      ['DELETE', 0],
    ] as const) {
      const response = await send(t.app, method, `/api/posts/${post.id}/like`, undefined, {
        cookie: reader.cookie,
      });
      expect(response.statusCode, response.body).toBe(200);
      const document = await currentDocument(post.id);
      expect(document.likeCount).toBe(likeCount);
      const messages = await receivedDocuments(client);
      expect(messages.get(postTopic(post.id))).toEqual([document]);
      expect(messages.get(feedTopic)).toEqual([
        { head: await newestPostId(), change: { kind: 'updated', post: document } },
      ]);
    }
  });

  it("sends a like to the post's watchers even when the feed's head cannot be read", async () => {
    const post = await createPost(author, 'Liked while the head is out of reach');
    const client = await watcher(post.id);
    // Not kept by the read cache, and not readable either.
    vi.spyOn(ReadCache.prototype, 'head').mockReturnValue(undefined);
    vi.spyOn(PostsRepository.prototype, 'head').mockRejectedValue(
      new Error('the database is down'),
    );
    const response = await send(t.app, 'PUT', `/api/posts/${post.id}/like`, undefined, {
      cookie: reader.cookie,
    });
    expect(response.statusCode, response.body).toBe(200);
    expect(response.json()).toEqual({ liked: true, likeCount: 1 });
    vi.restoreAllMocks();
    const messages = await receivedDocuments(client);
    expect(messages.get(postTopic(post.id))).toEqual([await currentDocument(post.id)]);
    // The feed hears of it with its next change; a head it could not read is never sent.
    expect(messages.get(feedTopic)).toBeUndefined();
  });

  it('sends the edited text to the post and the feed', async () => {
    const post = await createPost(author, 'Before the edit');
    const client = await watcher(post.id);
    const response = await send(
      t.app,
      'PATCH',
      `/api/posts/${post.id}`,
      { body: 'After the edit' },
      { cookie: author.cookie },
    );
    expect(response.statusCode, response.body).toBe(200);
    const document = await currentDocument(post.id);
    expect(document.body).toBe('After the edit');
    expect(document.editedAt).not.toBeNull();
    const messages = await receivedDocuments(client);
    expect(messages.get(postTopic(post.id))).toEqual([document]);
    expect(messages.get(feedTopic)).toEqual([
      { head: await newestPostId(), change: { kind: 'updated', post: document } },
    ]);
  });

  it('sends null for a deleted post, its deletion to the feed and the lower post count', async () => {
    const older = await createPost(author, 'Stays');
    const post = await createPost(author, 'Goes');
    const client = await watcher(post.id);
    const before = await postCount();
    const response = await send(t.app, 'DELETE', `/api/posts/${post.id}`, undefined, {
      cookie: author.cookie,
    });
    expect(response.statusCode).toBe(204);
    const messages = await receivedDocuments(client);
    expect(messages.get(postTopic(post.id))).toEqual([null]);
    expect(messages.get(feedTopic)).toEqual([
      { head: older.id, change: { kind: 'deleted', postId: post.id } },
    ]);
    const profile = userDocumentSchema.parse(messages.get(userTopic(author.user.uid))?.at(-1));
    expect(profile.counts.posts).toBe(before - 1);
  });

  it('sends nothing for a refused write', async () => {
    const post = await createPost(author, 'Not yours to change');
    const client = await watcher(post.id, reader.cookie);
    expectError(
      await send(
        t.app,
        'PATCH',
        `/api/posts/${post.id}`,
        { body: 'Hijacked' },
        { cookie: reader.cookie },
      ),
      403,
      'forbidden',
    );
    expectError(
      await send(t.app, 'DELETE', `/api/posts/${post.id}`, undefined, { cookie: reader.cookie }),
      403,
      'forbidden',
    );
    expectError(await send(t.app, 'PUT', `/api/posts/${post.id}/like`), 401, 'unauthenticated');
    expectError(
      await send(t.app, 'POST', '/api/posts', { body: '' }, { cookie: author.cookie }),
      400,
      'validation_failed',
      'body',
    );
    expect(await client.flush()).toEqual([]);
    expect(await currentDocument(post.id)).toEqual(documentOf(post));
  });
});
