/**
 * A write publishes the document it holds (ADR 0013): what its own transaction read back, never a second
 * read after the commit. Each test watches the documents a socket receives, checks they are exactly what
 * the HTTP API now serves, and counts the repository reads the write made.
 */
import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { feedTopic, postTopic, userTopic } from '../../shared/realtime.js';
import { commentSchema, postSchema, postViewSchema, type Post } from '../../shared/schemas/post.js';
import { userDocumentSchema } from '../../shared/schemas/user.js';
import { PostsRepository } from '../modules/posts/posts.repository.js';
import { UsersRepository } from '../modules/users/users.repository.js';
import { databaseTargets, send, signUp, type RealtimeClient } from '../test/harness.js';
import { receivedDocuments, setUpListeningApp } from '../test/realtime-suite.js';

type Person = Awaited<ReturnType<typeof signUp>>;

describe.each(databaseTargets)('publishing what a write holds on $name', (target) => {
  const t = setUpListeningApp(target);
  let author: Person;
  let reader: Person;

  beforeAll(async () => {
    [author, reader] = await Promise.all([signUp(t.app), signUp(t.app)]);
  });
  afterEach(() => {
    vi.restoreAllMocks();
  });

  /** Reads of posts and users made through the repositories, counted from now on. */
  function countReads() {
    return {
      postById: vi.spyOn(PostsRepository.prototype, 'findById'),
      postMedia: vi.spyOn(PostsRepository.prototype, 'mediaFor'),
      userById: vi.spyOn(UsersRepository.prototype, 'findById'),
    };
  }

  /** A socket that has read the snapshots of `topics`. */
  async function watch(...topics: string[]): Promise<RealtimeClient> {
    const client = await t.connect();
    for (const topic of topics) {
      client.send({ type: 'subscribe', topic });
      expect(await client.next()).toMatchObject({ type: 'doc', topic });
    }
    return client;
  }

  async function createPost(body: string): Promise<Post> {
    const response = await send(t.app, 'POST', '/api/posts', { body }, { cookie: author.cookie });
    expect(response.statusCode, response.body).toBe(201);
    return postSchema.parse(response.json());
  }

  async function served(postId: string): Promise<Post> {
    const response = await send(t.app, 'GET', `/api/posts/${postId}`);
    expect(response.statusCode, response.body).toBe(200);
    return postSchema.parse(postViewSchema.parse(response.json()));
  }

  async function servedUser(uid: string) {
    const response = await send(t.app, 'GET', `/api/users/${uid}`);
    expect(response.statusCode, response.body).toBe(200);
    return userDocumentSchema.parse(response.json());
  }

  it('a like publishes the post as its transaction left it, reading nothing after', async () => {
    const post = await createPost('Count me');
    const client = await watch(postTopic(post.id), feedTopic);
    const reads = countReads();
    const response = await send(t.app, 'PUT', `/api/posts/${post.id}/like`, undefined, {
      cookie: reader.cookie,
    });
    expect(response.statusCode, response.body).toBe(200);
    expect(response.json()).toEqual({ liked: true, likeCount: 1 });
    expect(reads.postById).not.toHaveBeenCalled();
    expect(reads.postMedia).not.toHaveBeenCalled();
    expect(reads.userById).not.toHaveBeenCalled();
    reads.postById.mockRestore();
    const document = await served(post.id);
    expect(document.likeCount).toBe(1);
    const messages = await receivedDocuments(client);
    expect(messages.get(postTopic(post.id))).toEqual([document]);
    expect(messages.get(feedTopic)).toEqual([
      { head: post.id, change: { kind: 'updated', post: document } },
    ]);
  });

  it('an edit publishes and answers the edited post from one read before and its transaction', async () => {
    const post = await createPost('Before');
    const client = await watch(postTopic(post.id));
    const reads = countReads();
    const response = await send(
      t.app,
      'PATCH',
      `/api/posts/${post.id}`,
      { body: 'After' },
      { cookie: author.cookie },
    );
    expect(response.statusCode, response.body).toBe(200);
    // Authorisation reads the post and its images once; nothing is read again to publish or answer.
    expect(reads.postById).toHaveBeenCalledTimes(1);
    expect(reads.postMedia).toHaveBeenCalledTimes(1);
    vi.restoreAllMocks();
    const document = await served(post.id);
    expect(document.body).toBe('After');
    expect(postViewSchema.parse(response.json())).toEqual({ ...document, liked: false });
    expect((await receivedDocuments(client)).get(postTopic(post.id))).toEqual([document]);
  });

  it('a new post publishes the post it wrote, with the images it holds', async () => {
    const client = await watch(feedTopic);
    const reads = countReads();
    const created = await createPost('Fresh #news');
    expect(reads.postById).not.toHaveBeenCalled();
    expect(reads.postMedia).not.toHaveBeenCalled();
    vi.restoreAllMocks();
    const document = await served(created.id);
    expect(created).toEqual(document);
    expect((await receivedDocuments(client)).get(feedTopic)).toEqual([
      { head: created.id, change: { kind: 'created', post: document } },
    ]);
  });

  it('every comment write publishes the post its transaction left, reading no post after', async () => {
    const post = await createPost('Talk to me');
    const client = await watch(postTopic(post.id));
    const reads = countReads();
    const steps: [string, () => Promise<number>][] = [];
    let commentId = '';
    steps.push([
      'comment',
      async () => {
        const response = await send(
          t.app,
          'POST',
          `/api/posts/${post.id}/comments`,
          { body: 'First!' },
          { cookie: reader.cookie },
        );
        commentId = commentSchema.parse(response.json()).id;
        return response.statusCode;
      },
    ]);
    steps.push([
      'edit',
      async () =>
        (
          await send(
            t.app,
            'PATCH',
            `/api/comments/${commentId}`,
            { body: 'First, edited' },
            { cookie: reader.cookie },
          )
        ).statusCode,
    ]);
    steps.push([
      'like',
      async () =>
        (
          await send(t.app, 'PUT', `/api/comments/${commentId}/like`, undefined, {
            cookie: author.cookie,
          })
        ).statusCode,
    ]);
    steps.push([
      'delete',
      async () =>
        (
          await send(t.app, 'DELETE', `/api/comments/${commentId}`, undefined, {
            cookie: reader.cookie,
          })
        ).statusCode,
    ]);
    for (const [what, step] of steps) {
      reads.postById.mockClear();
      reads.postMedia.mockClear();
      expect([200, 201, 204], what).toContain(await step());
      expect(reads.postById, what).not.toHaveBeenCalled();
      expect(reads.postMedia, what).not.toHaveBeenCalled();
      const document = await served(post.id);
      expect((await receivedDocuments(client)).get(postTopic(post.id)), what).toEqual([document]);
    }
    expect((await served(post.id)).commentCount).toBe(0);
  });

  it('a follow publishes both people as its transaction left them, reading neither after', async () => {
    const follower = await signUp(t.app);
    const followee = await signUp(t.app);
    const client = await watch(userTopic(follower.user.uid), userTopic(followee.user.uid));
    const reads = countReads();
    const response = await send(t.app, 'PUT', `/api/users/${followee.user.uid}/follow`, undefined, {
      cookie: follower.cookie,
    });
    expect(response.statusCode, response.body).toBe(200);
    expect(response.json()).toEqual({ following: true, followerCount: 1 });
    expect(reads.userById).not.toHaveBeenCalled();
    vi.restoreAllMocks();
    const messages = await receivedDocuments(client);
    expect(messages.get(userTopic(follower.user.uid))).toEqual([
      await servedUser(follower.user.uid),
    ]);
    expect(messages.get(userTopic(followee.user.uid))).toEqual([
      await servedUser(followee.user.uid),
    ]);
    expect((await servedUser(followee.user.uid)).counts.followers).toBe(1);
  });

  it('a profile edit and a sign-up each read the document once, and send what they read', async () => {
    const person = await signUp(t.app);
    const client = await watch(userTopic(person.user.uid));
    const reads = countReads();
    const response = await send(
      t.app,
      'PATCH',
      `/api/users/${person.user.uid}/profile`,
      { bio: 'Read once.' },
      { cookie: person.cookie },
    );
    expect(response.statusCode, response.body).toBe(200);
    // One read to authorise and compare the names, one for the result: answered and sent alike.
    expect(reads.userById).toHaveBeenCalledTimes(2);
    expect((await receivedDocuments(client)).get(userTopic(person.user.uid))).toEqual([
      userDocumentSchema.parse(response.json()),
    ]);

    reads.userById.mockClear();
    const newcomer = await signUp(t.app);
    expect(reads.userById).toHaveBeenCalledTimes(1);
    expect(newcomer.user.uid).toMatch(/\w/);
  });
});
