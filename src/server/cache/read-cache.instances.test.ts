import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import {
  pageSchema,
  postViewSchema,
  threadSchema,
  type PostView,
} from '../../shared/schemas/post.js';
import { userDocumentSchema, type UserDocument } from '../../shared/schemas/user.js';
import {
  createInstancePair,
  databaseTargets,
  send,
  signUp,
  testRedisUrl,
  type InstancePair,
  type TestApp,
} from '../test/harness.js';
import * as images from '../test/images.js';

type Person = Awaited<ReturnType<typeof signUp>>;
type App = TestApp['app'];

const as = (person: Person | null) => (person ? { cookie: person.cookie } : {});

/** Sends a write that must succeed and returns its answer. */
async function write(
  app: App,
  person: Person,
  method: 'POST' | 'PUT' | 'PATCH' | 'DELETE',
  url: string,
  body?: unknown,
): Promise<unknown> {
  const response = await send(app, method, url, body, as(person));
  expect(response.statusCode, `${method} ${url}: ${response.body}`).toBeLessThan(300);
  return response.body ? response.json() : null;
}

/** A post as `person` (or a visitor) reads it, or the status it answered instead. */
async function readPost(app: App, postId: string, person: Person | null = null) {
  const response = await send(app, 'GET', `/api/posts/${postId}`, undefined, as(person));
  return response.statusCode === 200
    ? postViewSchema.parse(response.json())
    : { status: response.statusCode };
}

async function everyone(app: App, person: Person | null = null): Promise<PostView[]> {
  const response = await send(app, 'GET', '/api/feed?tab=everyone', undefined, as(person));
  expect(response.statusCode, response.body).toBe(200);
  return pageSchema(postViewSchema).parse(response.json()).items;
}

async function following(app: App, person: Person): Promise<string[]> {
  const response = await send(app, 'GET', '/api/feed?tab=following', undefined, as(person));
  expect(response.statusCode, response.body).toBe(200);
  return pageSchema(postViewSchema)
    .parse(response.json())
    .items.map((post) => post.id);
}

async function profile(app: App, username: string): Promise<UserDocument> {
  const response = await send(app, 'GET', `/api/users/by-username/${username}`);
  expect(response.statusCode, response.body).toBe(200);
  return userDocumentSchema.parse(response.json());
}

async function comments(app: App, postId: string) {
  const response = await send(app, 'GET', `/api/posts/${postId}/comments`);
  expect(response.statusCode, response.body).toBe(200);
  return pageSchema(threadSchema).parse(response.json()).items;
}

/**
 * Reads twice, so the second read comes from the cache: what follows a write then checks that the write
 * reached a cache that held the old answer.
 */
async function warm(read: () => Promise<unknown>): Promise<void> {
  await read();
  await read();
}

/** The other instance hears of a write through Redis: its answer must change within moments. */
const eventually = (check: () => Promise<void>) =>
  vi.waitFor(check, { timeout: 5_000, interval: 20 });

describe.runIf(testRedisUrl).each(databaseTargets)(
  'read caches of two instances on $name',
  (target) => {
    let pair: InstancePair;
    let a: App;
    let b: App;
    let admin: Person;

    beforeAll(async () => {
      pair = await createInstancePair(target, testRedisUrl ?? '');
      a = pair.a.app;
      b = pair.b.app;
      admin = await signUp(a);
      await a.services.users.setRole(admin.user.username, 'admin');
    });

    afterAll(async () => {
      await pair.close();
    });

    const newPost = async (author: Person, body = 'A post to cache') =>
      ((await write(a, author, 'POST', '/api/posts', { body })) as { id: string }).id;

    it('a deleted post is gone at once where it was deleted, and on the other instance', async () => {
      const ann = await signUp(a);
      const postId = await newPost(ann);
      await warm(() => readPost(b, postId));
      await warm(() => everyone(b));
      expect((await everyone(b)).map((post) => post.id)).toContain(postId);
      await write(a, ann, 'DELETE', `/api/posts/${postId}`);
      expect(await readPost(a, postId)).toEqual({ status: 404 });
      expect((await everyone(a)).map((post) => post.id)).not.toContain(postId);
      await eventually(async () => {
        expect(await readPost(b, postId)).toEqual({ status: 404 });
        expect((await everyone(b)).map((post) => post.id)).not.toContain(postId);
      });
    });

    it("a moderator's removal hides the post from all but its author", async () => {
      const ann = await signUp(a);
      const postId = await newPost(ann);
      await warm(() => readPost(b, postId));
      await warm(() => everyone(b));
      await write(a, admin, 'POST', `/api/admin/posts/${postId}/removal`, { reason: 'Spam' });
      await eventually(async () => {
        expect(await readPost(b, postId)).toEqual({ status: 404 });
        expect((await everyone(b)).map((post) => post.id)).not.toContain(postId);
        expect(await readPost(b, postId, ann)).toMatchObject({ removal: { reason: 'Spam' } });
      });
    });

    it('a block and a mute hide the author from that viewer only', async () => {
      const [ann, vic, mia] = await Promise.all([signUp(a), signUp(a), signUp(a)]);
      const postId = await newPost(ann);
      await warm(() => readPost(b, postId, vic));
      await warm(() => everyone(b, vic));
      await warm(() => everyone(b, mia));
      await write(a, ann, 'PUT', `/api/users/${vic.user.uid}/block`);
      await write(a, mia, 'PUT', `/api/users/${ann.user.uid}/mute`, {});
      expect(await readPost(b, postId, vic)).toEqual({ status: 404 });
      expect((await everyone(b, vic)).map((post) => post.id)).not.toContain(postId);
      expect((await everyone(b, mia)).map((post) => post.id)).not.toContain(postId);
      expect(await readPost(b, postId)).toMatchObject({ id: postId });
      expect((await everyone(b)).map((post) => post.id)).toContain(postId);
    });

    it('an edit shows on the other instance', async () => {
      const ann = await signUp(a);
      const postId = await newPost(ann, 'Before the edit');
      await warm(() => readPost(b, postId));
      await warm(() => everyone(b));
      await write(a, ann, 'PATCH', `/api/posts/${postId}`, { body: 'After the edit' });
      expect(await readPost(a, postId)).toMatchObject({ body: 'After the edit' });
      await eventually(async () => {
        expect(await readPost(b, postId)).toMatchObject({ body: 'After the edit' });
        const listed = (await everyone(b)).find((post) => post.id === postId);
        expect(listed?.body).toBe('After the edit');
      });
    });

    it('a like counts for everyone and shows as liked to its viewer alone', async () => {
      const [ann, vic, wes] = await Promise.all([signUp(a), signUp(a), signUp(a)]);
      const postId = await newPost(ann);
      await warm(() => readPost(b, postId, vic));
      await warm(() => readPost(b, postId, wes));
      await warm(() => readPost(b, postId));
      await write(a, vic, 'PUT', `/api/posts/${postId}/like`);
      expect(await readPost(a, postId, vic)).toMatchObject({ liked: true, likeCount: 1 });
      expect(await readPost(a, postId, wes)).toMatchObject({ liked: false, likeCount: 1 });
      await eventually(async () => {
        expect(await readPost(b, postId, vic)).toMatchObject({ liked: true, likeCount: 1 });
        expect(await readPost(b, postId, wes)).toMatchObject({ liked: false, likeCount: 1 });
        expect(await readPost(b, postId)).toMatchObject({ liked: false, likeCount: 1 });
        const listed = (await everyone(b, wes)).find((post) => post.id === postId);
        expect(listed).toMatchObject({ liked: false, likeCount: 1 });
      });
      await write(a, vic, 'DELETE', `/api/posts/${postId}/like`);
      await eventually(async () => {
        expect(await readPost(b, postId, vic)).toMatchObject({ liked: false, likeCount: 0 });
        expect(await readPost(b, postId)).toMatchObject({ likeCount: 0 });
      });
    });

    it("the feed's head a like carries moves with posts created and deleted on the other instance", async () => {
      const [ann, vic] = await Promise.all([signUp(a), signUp(a)]);
      const liked = await newPost(ann, 'Liked on b');
      const head = async () => (await b.services.posts.feedSnapshot()).head;
      await write(b, vic, 'PUT', `/api/posts/${liked}/like`);
      expect(await head()).toBe(liked);
      const newest = await newPost(ann, 'Newer, written on a');
      await eventually(async () => {
        expect(await head()).toBe(newest);
      });
      await write(a, ann, 'DELETE', `/api/posts/${newest}`);
      await eventually(async () => {
        expect(await head()).toBe(liked);
      });
    });

    it("a comment and its deletion change the post's count and its comments page", async () => {
      const [ann, vic] = await Promise.all([signUp(a), signUp(a)]);
      const postId = await newPost(ann);
      await warm(() => readPost(b, postId));
      await warm(() => comments(b, postId));
      const comment = (await write(a, vic, 'POST', `/api/posts/${postId}/comments`, {
        body: 'First!',
      })) as { id: string };
      await eventually(async () => {
        expect(await readPost(b, postId)).toMatchObject({ commentCount: 1 });
        expect((await comments(b, postId)).map((item) => item.id)).toEqual([comment.id]);
      });
      await write(a, vic, 'DELETE', `/api/comments/${comment.id}`);
      await eventually(async () => {
        expect(await readPost(b, postId)).toMatchObject({ commentCount: 0 });
        expect(await comments(b, postId)).toEqual([]);
      });
    });

    it("a rename and a new avatar reach the author's profile, posts and comments", async () => {
      const [ann, vic] = await Promise.all([signUp(a), signUp(a)]);
      const postId = await newPost(ann);
      await write(a, ann, 'POST', `/api/posts/${postId}/comments`, { body: 'My own comment' });
      await warm(() => profile(b, ann.user.username));
      await warm(() => readPost(b, postId));
      await warm(() => everyone(b, vic));
      await warm(() => comments(b, postId));
      const renamed = `${ann.user.username}_x`;
      await write(a, ann, 'PATCH', `/api/users/${ann.user.uid}/profile`, { username: renamed });
      await eventually(async () => {
        expect((await profile(b, renamed)).uid).toBe(ann.user.uid);
        expect(await readPost(b, postId)).toMatchObject({ author: { username: renamed } });
        const listed = (await everyone(b, vic)).find((post) => post.id === postId);
        expect(listed?.author.username).toBe(renamed);
        expect((await comments(b, postId))[0]?.author.username).toBe(renamed);
      });
      const avatar = await images.sendForm(
        a,
        'PATCH',
        `/api/users/${ann.user.uid}/profile`,
        { avatar: { bytes: await images.jpeg() } },
        { cookie: ann.cookie },
      );
      expect(avatar.statusCode, avatar.body).toBe(200);
      await eventually(async () => {
        expect((await profile(b, renamed)).avatar).not.toBeNull();
        const post = await readPost(b, postId);
        expect('author' in post && post.author.avatarThumb).toBeTruthy();
      });
    });

    it("a reader's Following page follows their follows, mutes and blocks, and their followees' posts", async () => {
      const [ann, bob, rea] = await Promise.all([signUp(a), signUp(a), signUp(a)]);
      const first = await newPost(ann, 'Before the follow');
      await warm(() => following(b, rea));
      await write(a, rea, 'PUT', `/api/users/${ann.user.uid}/follow`);
      await write(a, rea, 'PUT', `/api/users/${bob.user.uid}/follow`);
      await eventually(async () => {
        expect(await following(b, rea)).toEqual([first]);
      });
      await warm(() => following(b, rea));
      const second = await newPost(ann, 'After the follow');
      const bobs = await newPost(bob, 'By bob');
      await eventually(async () => {
        expect(await following(b, rea)).toEqual([bobs, second, first]);
      });
      await warm(() => following(b, rea));
      await write(a, ann, 'DELETE', `/api/posts/${second}`);
      await eventually(async () => {
        expect(await following(b, rea)).toEqual([bobs, first]);
      });
      await warm(() => following(b, rea));
      await write(a, rea, 'PUT', `/api/users/${bob.user.uid}/mute`, {});
      await eventually(async () => {
        expect(await following(b, rea)).toEqual([first]);
      });
      await warm(() => following(b, rea));
      await write(a, ann, 'PUT', `/api/users/${rea.user.uid}/block`);
      await eventually(async () => {
        expect(await following(b, rea)).toEqual([]);
      });
    });

    it("an author's deactivation and suspension show on their profile and posts", async () => {
      const ann = await signUp(a);
      const postId = await newPost(ann);
      await warm(() => profile(b, ann.user.username));
      await warm(() => readPost(b, postId));
      await write(a, admin, 'PUT', `/api/admin/users/${ann.user.uid}/suspension`, {
        reason: 'Spam',
        duration: '1d',
      });
      await eventually(async () => {
        expect(await profile(b, ann.user.username)).toMatchObject({ suspended: true });
      });
      await write(a, admin, 'PUT', `/api/admin/users/${ann.user.uid}/active`, { active: false });
      await eventually(async () => {
        expect(await profile(b, ann.user.username)).toMatchObject({ active: false });
        expect(await readPost(b, postId)).toMatchObject({ author: { active: false } });
      });
    });
  },
);
