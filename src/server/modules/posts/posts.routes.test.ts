import { randomBytes } from 'node:crypto';
import { existsSync, readdirSync } from 'node:fs';
import path from 'node:path';
import type { LightMyRequestResponse } from 'fastify';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ErrorCode } from '../../../shared/error-codes.js';
import { limits, rateLimits } from '../../../shared/limits.js';
import {
  authorPageSchema,
  likeStateSchema,
  postPageSchema,
  postVersionsSchema,
  postViewSchema,
  type PostView,
} from '../../../shared/schemas/post.js';
import { userDocumentSchema } from '../../../shared/schemas/user.js';
import type { DatabaseHandle } from '../../db/database.js';
import { postRenditions } from '../../media/renditions.js';
import {
  createTestApp,
  databaseTargets,
  expectError,
  openAppDatabase,
  send,
  signUp,
  type RequestOptions,
  type TestApp,
} from '../../test/harness.js';
import * as images from '../../test/images.js';
import { sendForm, type FormValue } from '../../test/images.js';

type Person = Awaited<ReturnType<typeof signUp>>;

/** Every table a post writes to: a refused or failed call must leave each one as it was. */
const postTables = [
  'posts',
  'post_versions',
  'post_media',
  'post_tags',
  'post_likes',
  'media',
] as const;

/** Malformed post ids: not a positive decimal integer, or longer than any id the database hands out. */
const malformedIds = ['abc', '0', '-1', '01', '1.5', '1e3', '99999999999999999999'];

describe.each(databaseTargets)('posts API on $name', (target) => {
  let t: TestApp;
  let db: DatabaseHandle;
  /** Writes posts; the "owner" of the posts the other people act on. */
  let owner: Person;
  let other: Person;
  let admin: Person;
  /** Deactivated by an operator after sign-up: can read, cannot write. */
  let inactive: Person;
  /** Follows `owner` only, for the Following feed. */
  let reader: Person;

  beforeAll(async () => {
    // A few people write every post here; the posting limits are tested on an app of their own below.
    t = await createTestApp(target, { RATE_LIMITS: 'off' });
    db = openAppDatabase(t);
    [owner, other, admin, inactive, reader] = await Promise.all([
      signUp(t.app),
      signUp(t.app),
      signUp(t.app),
      signUp(t.app),
      signUp(t.app),
    ]);
    await t.app.services.users.setRole(admin.user.username, 'admin');
    await t.app.services.users.setActive(inactive.user.username, false);
    await follow(reader, owner);
  });
  afterAll(async () => {
    await db.close();
    await t.close();
  });

  // --- helpers -------------------------------------------------------------------------------------

  const json = (cookie?: string, extra: RequestOptions = {}): RequestOptions => ({
    cookie,
    ...extra,
  });

  /** Creates a text post through the API and returns it. */
  async function createPost(person: Person, body: string): Promise<PostView> {
    const response = await send(t.app, 'POST', '/api/posts', { body }, json(person.cookie));
    expect(response.statusCode, response.body).toBe(201);
    return postViewSchema.parse(response.json());
  }

  /** Creates a post with images through a multipart form, as the composer sends it. */
  async function createWithImages(
    person: Person,
    fields: Record<string, FormValue | FormValue[]>,
  ): Promise<PostView> {
    const response = await sendForm(t.app, 'POST', '/api/posts', fields, { cookie: person.cookie });
    expect(response.statusCode, response.body).toBe(201);
    return postViewSchema.parse(response.json());
  }

  const imageFile = async (): Promise<FormValue> => ({
    bytes: await images.png(64, 48),
    filename: 'small.png',
    type: 'image/png',
  });

  async function getPost(postId: string, cookie?: string): Promise<PostView> {
    const response = await send(t.app, 'GET', `/api/posts/${postId}`, undefined, { cookie });
    expect(response.statusCode, response.body).toBe(200);
    return postViewSchema.parse(response.json());
  }

  async function versionsOf(postId: string) {
    const response = await send(t.app, 'GET', `/api/posts/${postId}/versions`);
    expect(response.statusCode, response.body).toBe(200);
    return postVersionsSchema.parse(response.json()).items;
  }

  async function likersOf(postId: string, query = '') {
    const response = await send(t.app, 'GET', `/api/posts/${postId}/likes${query}`);
    expect(response.statusCode, response.body).toBe(200);
    return authorPageSchema.parse(response.json());
  }

  async function postCountOf(person: Person): Promise<number> {
    const response = await send(t.app, 'GET', `/api/users/${person.user.uid}`);
    expect(response.statusCode).toBe(200);
    return userDocumentSchema.parse(response.json()).counts.posts;
  }

  /** Walks a paginated post list to its end with `limit`, returning every id in order. */
  async function walk(url: string, limit: number, cookie?: string): Promise<string[]> {
    const ids: string[] = [];
    let cursor: string | null = null;
    const joiner = url.includes('?') ? '&' : '?';
    do {
      const cursorParam: string = cursor ? `&cursor=${cursor}` : '';
      const response = await send(
        t.app,
        'GET',
        `${url}${joiner}limit=${limit}${cursorParam}`,
        undefined,
        { cookie },
      );
      expect(response.statusCode, response.body).toBe(200);
      const page = postPageSchema.parse(response.json());
      ids.push(...page.items.map((post) => post.id));
      cursor = page.nextCursor;
    } while (cursor);
    return ids;
  }

  async function rowCounts(): Promise<Record<string, number>> {
    const counts: Record<string, number> = {};
    for (const table of postTables) {
      const row = await db.db
        .selectFrom(table)
        .select((eb) => eb.fn.countAll<number | string>().as('count'))
        .executeTakeFirstOrThrow();
      counts[table] = Number(row.count);
    }
    return counts;
  }

  const mediaRoot = () => path.join(t.config.dataDir, 'media');
  /** The file behind a `/media/…` URL. */
  const fileOf = (url: string) => {
    expect(url).toMatch(/^\/media\//);
    return path.join(mediaRoot(), url.slice('/media/'.length));
  };
  /** Every file under DATA_DIR/media, partial writes included (this file's app owns the folder). */
  const mediaFiles = () =>
    existsSync(mediaRoot())
      ? readdirSync(mediaRoot(), { recursive: true, withFileTypes: true })
          .filter((entry) => entry.isFile())
          .map((entry) => path.join(entry.parentPath, entry.name))
          .sort()
      : [];

  /** Everything anyone could observe about a post, and about posts in general. */
  async function stateOf(postId: string | null) {
    const read = async (url: string) => {
      const response = await send(t.app, 'GET', url);
      return { status: response.statusCode, body: response.json<unknown>() };
    };
    return {
      post: postId ? await read(`/api/posts/${postId}`) : null,
      versions: postId ? await read(`/api/posts/${postId}/versions`) : null,
      likers: postId ? await read(`/api/posts/${postId}/likes?limit=${limits.page.max}`) : null,
      ownerPosts: await postCountOf(owner),
      inactivePosts: await postCountOf(inactive),
      rows: await rowCounts(),
      files: mediaFiles(),
    };
  }

  /** Runs `action` while `person` is briefly active again (an inactive user's earlier posts and likes). */
  async function whileActive<T>(person: Person, action: () => Promise<T>): Promise<T> {
    await t.app.services.users.setActive(person.user.username, true);
    try {
      return await action();
    } finally {
      await t.app.services.users.setActive(person.user.username, false);
    }
  }

  /** `follower` follows `followee` through the follows API. */
  async function follow(follower: Person, followee: Person) {
    const response = await send(
      t.app,
      'PUT',
      `/api/users/${followee.user.uid}/follow`,
      undefined,
      json(follower.cookie),
    );
    expect(response.statusCode, response.body).toBe(200);
  }

  // --- creating ------------------------------------------------------------------------------------

  describe('creating a post', () => {
    it('creates a text post from JSON, counts it on the author and serves it back', async () => {
      const before = await postCountOf(owner);
      const response = await send(
        t.app,
        'POST',
        '/api/posts',
        { body: '  Hello, hearth!\r\nSecond line.  ' },
        json(owner.cookie),
      );
      expect(response.statusCode, response.body).toBe(201);
      const post = postViewSchema.parse(response.json());
      expect(post).toMatchObject({
        body: 'Hello, hearth!\nSecond line.',
        images: [],
        editedAt: null,
        likeCount: 0,
        commentCount: 0,
        liked: false,
        author: { uid: owner.user.uid, username: owner.user.username, active: true },
      });
      expect(Date.parse(post.createdAt)).not.toBeNaN();
      expect(await getPost(post.id)).toEqual(post);
      expect(await getPost(post.id, owner.cookie)).toEqual(post);
      expect(await versionsOf(post.id)).toEqual([]);
      expect(await postCountOf(owner)).toBe(before + 1);
    });

    it('creates a post with four images and their alt texts, each stored in its renditions', async () => {
      const before = await postCountOf(owner);
      const post = await createWithImages(owner, {
        body: 'Four pictures',
        image0: { bytes: await images.jpeg(320, 240), filename: 'a.jpg', type: 'image/jpeg' },
        alt0: 'A two-tone rectangle',
        image1: { bytes: await images.png(200, 300), filename: 'b.png', type: 'image/png' },
        alt1: 'A tall one',
        image2: { bytes: await images.webp(120, 120), filename: 'c.webp', type: 'image/webp' },
        alt2: '',
        image3: { bytes: await images.gif(100, 80), filename: 'd.gif', type: 'image/gif' },
        alt3: 'The last',
      });
      expect(post.body).toBe('Four pictures');
      expect(post.images.map((image) => image.alt)).toEqual([
        'A two-tone rectangle',
        'A tall one',
        null,
        'The last',
      ]);
      expect(post.images.map((image) => [image.width, image.height])).toEqual([
        [320, 240],
        [200, 300],
        [120, 120],
        [100, 80],
      ]);
      for (const image of post.images) {
        expect(image.url).not.toBe(image.fullUrl);
        for (const url of [image.url, image.fullUrl]) {
          expect(existsSync(fileOf(url)), url).toBe(true);
          const served = await send(t.app, 'GET', url);
          expect(served.statusCode).toBe(200);
          expect(served.headers['content-type']).toMatch(/^image\//);
        }
        const full = await sharp(fileOf(image.fullUrl)).metadata();
        expect([full.width, full.height]).toEqual([image.width, image.height]);
        // Small pictures: the 600, 800 and 1200 px renditions are the same size, so srcset has one entry.
        expect(image.sources.map((source) => source.width)).toEqual([image.width]);
        expect(image.sources[0]?.url).toMatch(/-small\.webp$/);
        expect(existsSync(fileOf(image.sources[0]?.url ?? ''))).toBe(true);
      }
      expect(await getPost(post.id)).toEqual(post);
      expect(await postCountOf(owner)).toBe(before + 1);
    });

    it('creates a post of images only, with no text', async () => {
      const post = await createWithImages(owner, { body: '', image0: await imageFile() });
      expect(post.body).toBe('');
      expect(post.images).toHaveLength(1);
      expect(post.images[0]?.alt).toBeNull();
    });

    it(`accepts exactly ${limits.post.max} characters, counting an emoji as one`, async () => {
      const letters = 'a'.repeat(limits.post.max);
      expect((await createPost(owner, letters)).body).toBe(letters);
      const emoji = '😀'.repeat(limits.post.max);
      expect(emoji.length).toBe(limits.post.max * 2);
      expect((await createPost(owner, emoji)).body).toBe(emoji);
    });

    it.each([
      ['no body at all', {}],
      ['an empty body', { body: '' }],
      ['a body of spaces and line breaks', { body: ' \n\r\n\t ' }],
      ['a body that is not text', { body: 42 }],
      ['one character too many', { body: 'a'.repeat(limits.post.max + 1) }],
      ['one emoji too many', { body: '😀'.repeat(limits.post.max + 1) }],
      ['a NUL character', { body: 'before\u0000after' }],
    ])('refuses %s on the body field and creates nothing', async (_case, body) => {
      const before = await stateOf(null);
      expectError(
        await send(t.app, 'POST', '/api/posts', body, json(owner.cookie)),
        400,
        'validation_failed',
        'body',
      );
      expect(await stateOf(null)).toEqual(before);
    });

    it('refuses an over-long text sent with an image, and stores no file', async () => {
      const before = await stateOf(null);
      expectError(
        await sendForm(
          t.app,
          'POST',
          '/api/posts',
          { body: 'a'.repeat(limits.post.max + 1), image0: await imageFile() },
          { cookie: owner.cookie },
        ),
        400,
        'validation_failed',
        'body',
      );
      expect(await stateOf(null)).toEqual(before);
    });

    it('refuses a form with neither text nor images on the body field', async () => {
      const before = await stateOf(null);
      expectError(
        await sendForm(
          t.app,
          'POST',
          '/api/posts',
          { body: '', alt0: 'An orphan alt' },
          {
            cookie: owner.cookie,
          },
        ),
        400,
        'validation_failed',
        'body',
      );
      expect(await stateOf(null)).toEqual(before);
    });

    it(`refuses more than ${limits.post.maxImages} images on the images field and keeps no file`, async () => {
      const before = await stateOf(null);
      const fields: Record<string, FormValue> = { body: 'Too many' };
      for (let index = 0; index <= limits.post.maxImages; index += 1) {
        fields[`image${index}`] = await imageFile();
      }
      expectError(
        await sendForm(t.app, 'POST', '/api/posts', fields, { cookie: owner.cookie }),
        400,
        'validation_failed',
        'images',
      );
      expect(await stateOf(null)).toEqual(before);
    });

    it('refuses two files for one image field and keeps no file', async () => {
      const before = await stateOf(null);
      const response = await sendForm(
        t.app,
        'POST',
        '/api/posts',
        { body: 'Twice', image0: [await imageFile(), await imageFile()] },
        { cookie: owner.cookie },
      );
      expectError(response, 400, 'validation_failed', 'image0');
      expect(await stateOf(null)).toEqual(before);
    });

    it.each([
      ['random bytes named .png', 'image1', () => randomBytes(4096), 415, 'unsupported_media_type'],
      [
        'an HTML page named .png',
        'image1',
        () => images.notImages.html,
        415,
        'unsupported_media_type',
      ],
      ['a TIFF', 'image2', () => images.tiff(), 415, 'unsupported_media_type'],
      ['a pixel flood', 'image3', () => images.pngFlood(), 413, 'payload_too_large'],
      ['an empty file with a name', 'image1', () => Buffer.alloc(0), 400, 'validation_failed'],
    ] as const)(
      'refuses %s on its field after good images, creating no post and keeping no file',
      async (_case, field, bytes, status, code) => {
        const before = await stateOf(null);
        const fields: Record<string, FormValue> = { body: 'With a bad image', alt0: 'fine' };
        for (const good of ['image0', 'image1', 'image2'].filter((name) => name < field)) {
          fields[good] = await imageFile();
        }
        fields[field] = { bytes: await bytes(), filename: 'photo.png', type: 'image/png' };
        expectError(
          await sendForm(t.app, 'POST', '/api/posts', fields, { cookie: owner.cookie }),
          status,
          code,
          field,
        );
        expect(await stateOf(null)).toEqual(before);
      },
    );

    it('refuses a write from another site with 403 origin_mismatch', async () => {
      const before = await stateOf(null);
      expectError(
        await send(
          t.app,
          'POST',
          '/api/posts',
          { body: 'Forged' },
          json(owner.cookie, { origin: 'http://evil.test' }),
        ),
        403,
        'origin_mismatch',
      );
      expect(await stateOf(null)).toEqual(before);
    });
  });

  // --- authorisation matrix ------------------------------------------------------------------------

  describe('authorisation matrix', () => {
    type Actor = 'owner' | 'other' | 'admin' | 'anonymous' | 'inactive' | 'no Origin';
    type Action = 'create' | 'edit' | 'delete' | 'like' | 'unlike';
    type Outcome = number | [number, ErrorCode];

    const refusedAnonymous: Outcome = [401, 'unauthenticated'];
    const refusedInactive: Outcome = [403, 'account_inactive'];
    const refusedOrigin: Outcome = [403, 'origin_mismatch'];
    const forbidden: Outcome = [403, 'forbidden'];

    /** Creating is not about someone's post, so it has no "other" column. */
    const matrix: Record<Action, Partial<Record<Actor, Outcome>>> = {
      create: {
        owner: 201,
        admin: 201,
        anonymous: refusedAnonymous,
        inactive: refusedInactive,
        'no Origin': refusedOrigin,
      },
      edit: {
        owner: 200,
        other: forbidden,
        admin: forbidden,
        anonymous: refusedAnonymous,
        inactive: refusedInactive,
        'no Origin': refusedOrigin,
      },
      delete: {
        owner: 204,
        other: forbidden,
        admin: 204,
        anonymous: refusedAnonymous,
        inactive: refusedInactive,
        'no Origin': refusedOrigin,
      },
      like: {
        owner: 200,
        other: 200,
        admin: 200,
        anonymous: refusedAnonymous,
        inactive: refusedInactive,
        'no Origin': refusedOrigin,
      },
      unlike: {
        owner: 200,
        other: 200,
        admin: 200,
        anonymous: refusedAnonymous,
        inactive: refusedInactive,
        'no Origin': refusedOrigin,
      },
    };

    const cases = Object.entries(matrix).flatMap(([action, row]) =>
      Object.entries(row).map(([actor, outcome]) => ({
        action: action as Action,
        actor: actor as Actor,
        status: typeof outcome === 'number' ? outcome : outcome[0],
        code: typeof outcome === 'number' ? undefined : outcome[1],
        answer: typeof outcome === 'number' ? String(outcome) : outcome.join(' '),
      })),
    );

    /** The person acting; the no-Origin caller is the owner, signed in, from a page that sent no Origin. */
    const personOf = (actor: Actor): Person | null =>
      ({
        owner,
        other,
        admin,
        inactive,
        anonymous: null,
        'no Origin': owner,
      })[actor];

    /**
     * The post acted on: the owner's, with one image. An inactive user edits and deletes their own post
     * (written while still active) and unlikes their own earlier like, so only their state refuses them.
     */
    async function prepare(action: Action, actor: Actor): Promise<string | null> {
      if (action === 'create') return null;
      const author =
        actor === 'inactive' && action !== 'like' && action !== 'unlike' ? inactive : owner;
      const write = async () =>
        createWithImages(author, {
          body: `Original text for ${action} by ${actor}`,
          image0: await imageFile(),
          alt0: 'Original alt',
        });
      const post = author === inactive ? await whileActive(inactive, write) : await write();
      if (action === 'unlike') {
        const liker = personOf(actor) ?? other;
        const like = () =>
          send(t.app, 'PUT', `/api/posts/${post.id}/like`, undefined, json(liker.cookie));
        const response = liker === inactive ? await whileActive(inactive, like) : await like();
        expect(response.statusCode, response.body).toBe(200);
      }
      return post.id;
    }

    function call(action: Action, actor: Actor, postId: string | null) {
      const person = personOf(actor);
      const options = json(person?.cookie, actor === 'no Origin' ? { origin: null } : {});
      switch (action) {
        case 'create':
          return (async () =>
            sendForm(
              t.app,
              'POST',
              '/api/posts',
              { body: `Created by ${actor}`, image0: await imageFile(), alt0: 'New alt' },
              options,
            ))();
        case 'edit':
          return send(
            t.app,
            'PATCH',
            `/api/posts/${postId}`,
            { body: `Edited by ${actor}`, alts: ['Edited alt'] },
            options,
          );
        case 'delete':
          return send(t.app, 'DELETE', `/api/posts/${postId}`, undefined, options);
        case 'like':
          return send(t.app, 'PUT', `/api/posts/${postId}/like`, undefined, options);
        case 'unlike':
          return send(t.app, 'DELETE', `/api/posts/${postId}/like`, undefined, options);
      }
    }

    /** The change a permitted call must have made, seen through the API. */
    async function expectDone(
      action: Action,
      actor: Actor,
      postId: string | null,
      response: LightMyRequestResponse,
      before: Awaited<ReturnType<typeof stateOf>>,
    ) {
      const person = personOf(actor);
      switch (action) {
        case 'create': {
          const post = postViewSchema.parse(response.json());
          expect(post).toMatchObject({
            body: `Created by ${actor}`,
            author: { uid: person?.user.uid },
          });
          expect(post.images.map((image) => image.alt)).toEqual(['New alt']);
          expect(await getPost(post.id)).toEqual(post);
          const after = await rowCounts();
          expect(after.posts).toBe((before.rows.posts ?? 0) + 1);
          return;
        }
        case 'edit': {
          const post = postViewSchema.parse(response.json());
          expect(post.body).toBe(`Edited by ${actor}`);
          expect(post.editedAt).not.toBeNull();
          expect(post.images.map((image) => image.alt)).toEqual(['Edited alt']);
          expect(await getPost(postId ?? '', person?.cookie)).toEqual(post);
          expect((await versionsOf(postId ?? '')).map((version) => version.body)).toEqual([
            `Original text for edit by ${actor}`,
          ]);
          return;
        }
        case 'delete': {
          expect(response.body).toBe('');
          expectError(await send(t.app, 'GET', `/api/posts/${postId}`), 404, 'not_found');
          expect(await postCountOf(owner)).toBe(before.ownerPosts - 1);
          const after = await rowCounts();
          expect(after.posts).toBe((before.rows.posts ?? 0) - 1);
          expect(after.media).toBe((before.rows.media ?? 0) - 1);
          expect(mediaFiles().length).toBe(before.files.length - postRenditions.length);
          return;
        }
        case 'like':
        case 'unlike': {
          const liked = action === 'like';
          const expectedCount = liked ? 1 : 0;
          expect(likeStateSchema.parse(response.json())).toEqual({
            liked,
            likeCount: expectedCount,
          });
          const seen = await getPost(postId ?? '', person?.cookie);
          expect(seen).toMatchObject({ liked, likeCount: expectedCount });
          expect((await getPost(postId ?? '')).liked).toBe(false);
          expect((await likersOf(postId ?? '')).items.map((author) => author.uid)).toEqual(
            liked ? [person?.user.uid] : [],
          );
          return;
        }
      }
    }

    it.each(cases)('$action as $actor answers $answer', async ({ action, actor, status, code }) => {
      const postId = await prepare(action, actor);
      const before = await stateOf(postId);
      const response = await call(action, actor, postId);
      if (code) {
        expectError(response, status, code);
        expect(await stateOf(postId)).toEqual(before);
      } else {
        expect(response.statusCode, response.body).toBe(status);
        await expectDone(action, actor, postId, response, before);
      }
    });
  });

  // --- reading -------------------------------------------------------------------------------------

  describe('reading posts', () => {
    it('answers 404 for an unknown post on every post endpoint', async () => {
      const unknown = '9999999999';
      for (const [method, url] of [
        ['GET', `/api/posts/${unknown}`],
        ['GET', `/api/posts/${unknown}/versions`],
        ['GET', `/api/posts/${unknown}/likes`],
        ['PATCH', `/api/posts/${unknown}`],
        ['DELETE', `/api/posts/${unknown}`],
        ['PUT', `/api/posts/${unknown}/like`],
        ['DELETE', `/api/posts/${unknown}/like`],
      ] as const) {
        const body = method === 'PATCH' ? { body: 'Nobody' } : undefined;
        expectError(await send(t.app, method, url, body, json(owner.cookie)), 404, 'not_found');
      }
    });

    it.each(malformedIds)(
      'answers 400 for the malformed id %s on every post endpoint',
      async (id) => {
        const before = await stateOf(null);
        for (const [method, url] of [
          ['GET', `/api/posts/${id}`],
          ['GET', `/api/posts/${id}/versions`],
          ['GET', `/api/posts/${id}/likes`],
          ['PATCH', `/api/posts/${id}`],
          ['DELETE', `/api/posts/${id}`],
          ['PUT', `/api/posts/${id}/like`],
          ['DELETE', `/api/posts/${id}/like`],
        ] as const) {
          const body = method === 'PATCH' ? { body: 'Malformed' } : undefined;
          expectError(
            await send(t.app, method, url, body, json(owner.cookie)),
            400,
            'validation_failed',
            'postId',
          );
        }
        expect(await stateOf(null)).toEqual(before);
      },
    );

    it("lists a user's posts newest first, and only theirs", async () => {
      const person = await signUp(t.app);
      const first = await createPost(person, 'First of mine');
      await createPost(other, 'Not mine');
      const second = await createPost(person, 'Second of mine');
      const response = await send(t.app, 'GET', `/api/users/${person.user.uid}/posts`);
      expect(response.statusCode, response.body).toBe(200);
      const page = postPageSchema.parse(response.json());
      expect(page).toEqual({ items: [second, first], nextCursor: null });
      expect(await walk(`/api/users/${person.user.uid}/posts`, 1)).toEqual([second.id, first.id]);
    });

    it("answers 404 for an unknown user's posts and 400 for a malformed uid", async () => {
      expectError(await send(t.app, 'GET', '/api/users/nobody-here/posts'), 404, 'not_found');
      expectError(
        await send(t.app, 'GET', `/api/users/${'x'.repeat(65)}/posts`),
        400,
        'validation_failed',
      );
    });

    it.each([
      ['cursor=abc', 'cursor'],
      ['cursor=0', 'cursor'],
      ['limit=0', 'limit'],
      [`limit=${limits.page.max + 1}`, 'limit'],
      ['limit=-1', 'limit'],
      ['limit=ten', 'limit'],
      ['limit=1.5', 'limit'],
    ])("refuses the bad query %s on a user's posts and on likers", async (query, field) => {
      expectError(
        await send(t.app, 'GET', `/api/users/${owner.user.uid}/posts?${query}`),
        400,
        'validation_failed',
        field,
      );
      const post = await createPost(owner, 'Liked by nobody');
      expectError(
        await send(t.app, 'GET', `/api/posts/${post.id}/likes?${query}`),
        400,
        'validation_failed',
        field,
      );
    });
  });

  // --- editing -------------------------------------------------------------------------------------

  describe('editing a post', () => {
    it('keeps each earlier text as a version, newest first, and marks the post edited', async () => {
      const created = await createPost(owner, 'Version one');
      expect(await versionsOf(created.id)).toEqual([]);

      const firstEdit = send(
        t.app,
        'PATCH',
        `/api/posts/${created.id}`,
        { body: 'Version two' },
        json(owner.cookie),
      );
      const second = postViewSchema.parse((await firstEdit).json());
      expect(second).toMatchObject({
        id: created.id,
        body: 'Version two',
        createdAt: created.createdAt,
      });
      expect(second.editedAt).not.toBeNull();
      expect(Date.parse(second.editedAt ?? '')).toBeGreaterThanOrEqual(
        Date.parse(created.createdAt),
      );

      const response = await send(
        t.app,
        'PATCH',
        `/api/posts/${created.id}`,
        { body: '  Version three  ' },
        json(owner.cookie),
      );
      expect(response.statusCode, response.body).toBe(200);
      const third = postViewSchema.parse(response.json());
      expect(third.body).toBe('Version three');
      expect(await getPost(created.id, owner.cookie)).toEqual(third);
      expect(await versionsOf(created.id)).toEqual([
        { body: 'Version two', createdAt: second.editedAt },
        { body: 'Version one', createdAt: created.createdAt },
      ]);
    });

    it('adds no version and no "edited" mark when the text does not change', async () => {
      const created = await createPost(owner, 'Unchanged');
      const response = await send(
        t.app,
        'PATCH',
        `/api/posts/${created.id}`,
        { body: 'Unchanged ' },
        json(owner.cookie),
      );
      expect(response.statusCode, response.body).toBe(200);
      expect(postViewSchema.parse(response.json())).toEqual(created);
      expect(await versionsOf(created.id)).toEqual([]);
    });

    it('updates alt texts by position, clearing one with null, without marking the text edited', async () => {
      const created = await createWithImages(owner, {
        body: 'Two images',
        image0: await imageFile(),
        alt0: 'Old first',
        image1: await imageFile(),
        alt1: 'Old second',
      });
      const response = await send(
        t.app,
        'PATCH',
        `/api/posts/${created.id}`,
        { body: 'Two images', alts: ['New first', null] },
        json(owner.cookie),
      );
      expect(response.statusCode, response.body).toBe(200);
      const edited = postViewSchema.parse(response.json());
      expect(edited.images.map((image) => image.alt)).toEqual(['New first', null]);
      expect(edited.images.map((image) => image.url)).toEqual(
        created.images.map((image) => image.url),
      );
      expect(edited.editedAt).toBeNull();
      expect(await versionsOf(created.id)).toEqual([]);
      expect(await getPost(created.id)).toEqual({ ...edited, liked: false });
    });

    it('lets the text of a post with images be emptied, but not of a post without', async () => {
      const withImage = await createWithImages(owner, {
        body: 'Caption',
        image0: await imageFile(),
      });
      const emptied = await send(
        t.app,
        'PATCH',
        `/api/posts/${withImage.id}`,
        { body: '' },
        json(owner.cookie),
      );
      expect(emptied.statusCode, emptied.body).toBe(200);
      expect(postViewSchema.parse(emptied.json()).body).toBe('');

      const textOnly = await createPost(owner, 'Only words');
      const before = await stateOf(textOnly.id);
      expectError(
        await send(t.app, 'PATCH', `/api/posts/${textOnly.id}`, { body: '  ' }, json(owner.cookie)),
        400,
        'validation_failed',
        'body',
      );
      expect(await stateOf(textOnly.id)).toEqual(before);
    });

    it.each([
      ['an over-long text', 'body', { body: 'a'.repeat(limits.post.max + 1) }],
      ['no text', 'body', { alts: ['An alt'] }],
      ['an alt for an image the post does not have', 'alts', { body: 'Changed', alts: ['1', '2'] }],
      ['an over-long alt', 'alts', { body: 'Changed', alts: ['x'.repeat(limits.altText.max + 1)] }],
      ['alts that are not a list', 'alts', { body: 'Changed', alts: 'One' }],
    ])('refuses %s on the %s field and changes nothing', async (_case, field, body) => {
      const created = await createWithImages(owner, {
        body: 'Before',
        image0: await imageFile(),
        alt0: 'Before alt',
      });
      const before = await stateOf(created.id);
      const error = expectError(
        await send(t.app, 'PATCH', `/api/posts/${created.id}`, body, json(owner.cookie)),
        400,
        'validation_failed',
      );
      expect(Object.keys(error.fields ?? {}).some((key) => key.startsWith(field))).toBe(true);
      expect(await stateOf(created.id)).toEqual(before);
    });

    it('moves the post between hashtag feeds when its text changes', async () => {
      const tag = `edit${randomBytes(3).toString('hex')}`;
      const post = await createPost(owner, `About #${tag}`);
      expect(await walk(`/api/feed?tag=${tag}`, 10)).toEqual([post.id]);
      await send(
        t.app,
        'PATCH',
        `/api/posts/${post.id}`,
        { body: 'No tag now' },
        json(owner.cookie),
      );
      expect(await walk(`/api/feed?tag=${tag}`, 10)).toEqual([]);
      await send(
        t.app,
        'PATCH',
        `/api/posts/${post.id}`,
        { body: `#${tag} again` },
        json(owner.cookie),
      );
      expect(await walk(`/api/feed?tag=${tag}`, 10)).toEqual([post.id]);
    });
  });

  // --- deleting ------------------------------------------------------------------------------------

  describe('deleting a post', () => {
    it('removes the post, its likes, versions, images and files, and uncounts it', async () => {
      const post = await createWithImages(owner, {
        body: 'Short-lived',
        image0: await imageFile(),
        image1: await imageFile(),
      });
      await send(
        t.app,
        'PATCH',
        `/api/posts/${post.id}`,
        { body: 'Edited once' },
        json(owner.cookie),
      );
      await send(t.app, 'PUT', `/api/posts/${post.id}/like`, undefined, json(other.cookie));
      const files = post.images.flatMap((image) => [fileOf(image.url), fileOf(image.fullUrl)]);
      for (const file of files) expect(existsSync(file)).toBe(true);
      const rowsBefore = await rowCounts();
      const postsBefore = await postCountOf(owner);

      const response = await send(
        t.app,
        'DELETE',
        `/api/posts/${post.id}`,
        undefined,
        json(owner.cookie),
      );
      expect(response.statusCode).toBe(204);
      expect(response.body).toBe('');

      for (const file of files) expect(existsSync(file), file).toBe(false);
      expect(await postCountOf(owner)).toBe(postsBefore - 1);
      expect(await rowCounts()).toEqual({
        ...rowsBefore,
        posts: (rowsBefore.posts ?? 0) - 1,
        post_versions: (rowsBefore.post_versions ?? 0) - 1,
        post_media: (rowsBefore.post_media ?? 0) - 2,
        post_likes: (rowsBefore.post_likes ?? 0) - 1,
        media: (rowsBefore.media ?? 0) - 2,
      });
      for (const url of [
        `/api/posts/${post.id}`,
        `/api/posts/${post.id}/versions`,
        `/api/posts/${post.id}/likes`,
      ]) {
        expectError(await send(t.app, 'GET', url), 404, 'not_found');
      }
      expect(await walk(`/api/users/${owner.user.uid}/posts`, limits.page.max)).not.toContain(
        post.id,
      );
    });

    it('answers 404 to liking, unliking, editing or deleting a deleted post, changing nothing', async () => {
      const post = await createPost(owner, 'Gone soon');
      await send(t.app, 'DELETE', `/api/posts/${post.id}`, undefined, json(owner.cookie));
      const before = await stateOf(post.id);
      for (const [method, url, person] of [
        ['PUT', `/api/posts/${post.id}/like`, other],
        ['DELETE', `/api/posts/${post.id}/like`, other],
        ['PATCH', `/api/posts/${post.id}`, owner],
        ['DELETE', `/api/posts/${post.id}`, owner],
        ['DELETE', `/api/posts/${post.id}`, admin],
      ] as const) {
        const body = method === 'PATCH' ? { body: 'Back from the dead' } : undefined;
        expectError(await send(t.app, method, url, body, json(person.cookie)), 404, 'not_found');
      }
      expect(await stateOf(post.id)).toEqual(before);
    });
  });

  describe('at the same time', () => {
    it('counts likes sent at once by many people, and a repeated like once', async () => {
      const post = await createPost(owner, 'Liked all at once');
      const likers = [other, admin, reader, owner];
      const responses = await Promise.all(
        [...likers, other, reader].map((person) =>
          send(t.app, 'PUT', `/api/posts/${post.id}/like`, undefined, json(person.cookie)),
        ),
      );
      for (const response of responses) expect(response.statusCode, response.body).toBe(200);
      expect((await getPost(post.id)).likeCount).toBe(likers.length);
      expect((await likersOf(post.id)).items).toHaveLength(likers.length);
    });

    it('deletes a post once when its author and an administrator delete it at once', async () => {
      const before = await postCountOf(owner);
      const post = await createPost(owner, 'Deleted twice at once');
      const responses = await Promise.all(
        [owner, admin, owner].map((person) =>
          send(t.app, 'DELETE', `/api/posts/${post.id}`, undefined, json(person.cookie)),
        ),
      );
      const statuses = responses.map((response) => response.statusCode).sort();
      expect(statuses).toEqual([204, 404, 404]);
      expect(await postCountOf(owner)).toBe(before);
    });

    it('answers likes, unlikes and edits racing a deletion with 200 or 404, never 5xx', async () => {
      for (let round = 0; round < 15; round += 1) {
        const post = await createPost(owner, `Racing ${round}`);
        const [deleted, ...racing] = await Promise.all([
          send(t.app, 'DELETE', `/api/posts/${post.id}`, undefined, json(owner.cookie)),
          send(t.app, 'PUT', `/api/posts/${post.id}/like`, undefined, json(other.cookie)),
          send(t.app, 'PUT', `/api/posts/${post.id}/like`, undefined, json(reader.cookie)),
          send(t.app, 'DELETE', `/api/posts/${post.id}/like`, undefined, json(admin.cookie)),
          send(
            t.app,
            'PATCH',
            `/api/posts/${post.id}`,
            { body: `Raced ${round}` },
            json(owner.cookie),
          ),
        ]);
        expect(deleted.statusCode, deleted.body).toBe(204);
        for (const response of racing) {
          expect([200, 404], response.body).toContain(response.statusCode);
          if (response.statusCode === 404) expectError(response, 404, 'not_found');
        }
        expectError(await send(t.app, 'GET', `/api/posts/${post.id}`), 404, 'not_found');
      }
    });
  });

  // --- likes ---------------------------------------------------------------------------------------

  describe('likes', () => {
    const like = (postId: string, person: Person) =>
      send(t.app, 'PUT', `/api/posts/${postId}/like`, undefined, json(person.cookie));
    const unlike = (postId: string, person: Person) =>
      send(t.app, 'DELETE', `/api/posts/${postId}/like`, undefined, json(person.cookie));
    const stateFrom = (response: LightMyRequestResponse) => {
      expect(response.statusCode, response.body).toBe(200);
      return likeStateSchema.parse(response.json());
    };

    it('is idempotent: liking twice counts once, unliking twice leaves none', async () => {
      const post = await createPost(owner, 'Like me');
      expect(stateFrom(await like(post.id, other))).toEqual({ liked: true, likeCount: 1 });
      expect(stateFrom(await like(post.id, other))).toEqual({ liked: true, likeCount: 1 });
      expect(await getPost(post.id, other.cookie)).toMatchObject({ liked: true, likeCount: 1 });
      expect(await getPost(post.id, owner.cookie)).toMatchObject({ liked: false, likeCount: 1 });
      expect(await getPost(post.id)).toMatchObject({ liked: false, likeCount: 1 });

      expect(stateFrom(await unlike(post.id, other))).toEqual({ liked: false, likeCount: 0 });
      expect(stateFrom(await unlike(post.id, other))).toEqual({ liked: false, likeCount: 0 });
      expect(await getPost(post.id, other.cookie)).toMatchObject({ liked: false, likeCount: 0 });
      expect((await likersOf(post.id)).items).toEqual([]);
    });

    it('unliking a post never liked changes nothing', async () => {
      const post = await createPost(owner, 'Liked by one');
      await like(post.id, other);
      expect(stateFrom(await unlike(post.id, reader))).toEqual({ liked: false, likeCount: 1 });
      expect((await likersOf(post.id)).items.map((author) => author.uid)).toEqual([other.user.uid]);
    });

    it('shows `liked` per viewer in lists too', async () => {
      const post = await createPost(owner, 'Liked in the feed');
      await like(post.id, reader);
      const pageFor = async (cookie?: string) => {
        const response = await send(
          t.app,
          'GET',
          `/api/users/${owner.user.uid}/posts?limit=1`,
          undefined,
          { cookie },
        );
        return postPageSchema.parse(response.json()).items[0];
      };
      expect(await pageFor(reader.cookie)).toMatchObject({
        id: post.id,
        liked: true,
        likeCount: 1,
      });
      expect(await pageFor(other.cookie)).toMatchObject({
        id: post.id,
        liked: false,
        likeCount: 1,
      });
      expect(await pageFor()).toMatchObject({ id: post.id, liked: false, likeCount: 1 });
    });

    it('lists who liked a post, newest first, page by page', async () => {
      const post = await createPost(owner, 'Popular');
      for (const person of [other, admin, reader, owner]) {
        expect(stateFrom(await like(post.id, person)).liked).toBe(true);
      }
      expect(stateFrom(await like(post.id, admin)).likeCount).toBe(4);
      const expected = [owner, reader, admin, other].map((person) => person.user.uid);

      const all = await likersOf(post.id);
      expect(all.nextCursor).toBeNull();
      expect(all.items.map((author) => author.uid)).toEqual(expected);
      expect(all.items[0]).toMatchObject({
        uid: owner.user.uid,
        username: owner.user.username,
        active: true,
      });

      const first = await likersOf(post.id, '?limit=3');
      expect(first.items.map((author) => author.uid)).toEqual(expected.slice(0, 3));
      expect(first.nextCursor).not.toBeNull();
      const second = await likersOf(post.id, `?limit=3&cursor=${first.nextCursor}`);
      expect(second).toMatchObject({ nextCursor: null });
      expect(second.items.map((author) => author.uid)).toEqual(expected.slice(3));

      const exact = await likersOf(post.id, '?limit=4');
      expect(exact.items).toHaveLength(4);
      expect(exact.nextCursor).toBeNull();

      stateFrom(await unlike(post.id, admin));
      expect((await likersOf(post.id)).items.map((author) => author.uid)).toEqual(
        [owner, reader, other].map((person) => person.user.uid),
      );
      expect((await getPost(post.id)).likeCount).toBe(3);
    });
  });

  // --- feed ----------------------------------------------------------------------------------------

  describe('feed', () => {
    it('shows everyone’s posts to anyone, newest first', async () => {
      const mine = await createPost(owner, 'Everyone sees this');
      const theirs = await createPost(other, 'And this');
      const response = await send(t.app, 'GET', '/api/feed?limit=2');
      expect(response.statusCode, response.body).toBe(200);
      expect(postPageSchema.parse(response.json()).items).toEqual([theirs, mine]);
      const explicit = await send(t.app, 'GET', '/api/feed?tab=everyone&limit=2');
      expect(explicit.json()).toEqual(response.json());
    });

    it('needs a signed-in viewer for the Following tab', async () => {
      expectError(await send(t.app, 'GET', '/api/feed?tab=following'), 401, 'unauthenticated');
      expectError(
        await send(t.app, 'GET', '/api/feed?tab=following&tag=news'),
        401,
        'unauthenticated',
      );
    });

    it('shows the viewer and the people they follow on the Following tab, and no one else', async () => {
      const own = await createPost(reader, 'Mine');
      const followed = await createPost(owner, 'Followed');
      const stranger = await createPost(other, 'Stranger');

      const ids = await walk('/api/feed?tab=following', limits.page.max, reader.cookie);
      expect(ids).toContain(own.id);
      expect(ids).toContain(followed.id);
      expect(ids).not.toContain(stranger.id);
      const expected = [
        ...(await walk(`/api/users/${reader.user.uid}/posts`, limits.page.max)),
        ...(await walk(`/api/users/${owner.user.uid}/posts`, limits.page.max)),
      ].sort((a, b) => Number(b) - Number(a));
      expect(ids).toEqual(expected);
      expect(await walk('/api/feed?tab=following', 7, reader.cookie)).toEqual(expected);

      const response = await send(t.app, 'GET', '/api/feed?tab=following&limit=2', undefined, {
        cookie: reader.cookie,
      });
      expect(postPageSchema.parse(response.json()).items).toEqual([followed, own]);

      const alone = await walk('/api/feed?tab=following', limits.page.max, other.cookie);
      expect(alone).toEqual(await walk(`/api/users/${other.user.uid}/posts`, limits.page.max));
    });

    it('filters the Everyone feed by hashtag, whatever its case', async () => {
      const tag = `Hearth${randomBytes(3).toString('hex')}`;
      const first = await createPost(owner, `Hello #${tag}!`);
      await createPost(owner, `Mentions ${tag} without the hash`);
      const second = await createPost(other, `Shouting #${tag.toUpperCase()} and #elsewhere`);
      const third = await createPost(reader, `#${tag.toLowerCase()}`);
      const expected = [third.id, second.id, first.id];
      for (const query of [tag, tag.toLowerCase(), tag.toUpperCase()]) {
        expect(await walk(`/api/feed?tag=${query}`, limits.page.max)).toEqual(expected);
        expect(await walk(`/api/feed?tab=everyone&tag=${query}`, 2)).toEqual(expected);
      }
      await send(t.app, 'DELETE', `/api/posts/${second.id}`, undefined, json(other.cookie));
      expect(await walk(`/api/feed?tag=${tag}`, 1)).toEqual([third.id, first.id]);
      expect(await walk(`/api/feed?tag=${tag}x`, limits.page.max)).toEqual([]);
    });

    it('finds hashtags in any script, whatever their case', async () => {
      const suffix = randomBytes(2).toString('hex');
      const accented = await createPost(owner, `Le #Café${suffix} du coin`);
      const japanese = await createPost(other, `#日本${suffix}`);
      for (const [query, post] of [
        [`café${suffix}`, accented],
        [`CAFÉ${suffix}`, accented],
        [`日本${suffix}`, japanese],
      ] as const) {
        const response = await send(t.app, 'GET', `/api/feed?tag=${encodeURIComponent(query)}`);
        expect(response.statusCode, response.body).toBe(200);
        expect(postPageSchema.parse(response.json()).items.map((item) => item.id)).toEqual([
          post.id,
        ]);
      }
    });

    it('answers posts newer than `after`, newest first, with no next page', async () => {
      const base = await createPost(owner, 'Seen already');
      expect(
        postPageSchema.parse((await send(t.app, 'GET', `/api/feed?after=${base.id}`)).json()),
      ).toEqual({
        items: [],
        nextCursor: null,
      });
      const newer = [
        await createPost(other, 'New one'),
        await createPost(reader, 'New two'),
        await createPost(owner, 'New three'),
      ];
      const response = await send(t.app, 'GET', `/api/feed?after=${base.id}`);
      expect(response.statusCode, response.body).toBe(200);
      const page = postPageSchema.parse(response.json());
      expect(page.items.map((post) => post.id)).toEqual(newer.map((post) => post.id).reverse());
      expect(page.nextCursor).toBeNull();

      const capped = postPageSchema.parse(
        (await send(t.app, 'GET', `/api/feed?after=${base.id}&limit=2`)).json(),
      );
      expect(capped.items.map((post) => post.id)).toEqual([newer[2]?.id, newer[1]?.id]);

      const following = postPageSchema.parse(
        (
          await send(t.app, 'GET', `/api/feed?tab=following&after=${base.id}`, undefined, {
            cookie: reader.cookie,
          })
        ).json(),
      );
      expect(following.items.map((post) => post.id)).toEqual([newer[2]?.id, newer[1]?.id]);
    });

    it('pages on correctly from a cursor whose post was deleted', async () => {
      const person = await signUp(t.app);
      const posts: PostView[] = [];
      for (let index = 0; index < 5; index += 1)
        posts.push(await createPost(person, `Post ${index}`));
      const ids = posts.map((post) => post.id).reverse();
      const url = `/api/users/${person.user.uid}/posts`;
      const first = postPageSchema.parse((await send(t.app, 'GET', `${url}?limit=2`)).json());
      expect(first.items.map((post) => post.id)).toEqual(ids.slice(0, 2));
      await send(t.app, 'DELETE', `/api/posts/${first.nextCursor}`, undefined, json(person.cookie));
      const rest = postPageSchema.parse(
        (await send(t.app, 'GET', `${url}?limit=5&cursor=${first.nextCursor}`)).json(),
      );
      expect(rest).toEqual({
        items: posts
          .slice(0, 3)
          .reverse()
          .map((post) => ({ ...post, liked: false })),
        nextCursor: null,
      });
      const everyone = postPageSchema.parse(
        (await send(t.app, 'GET', `/api/feed?limit=3&cursor=${first.nextCursor}`)).json(),
      );
      expect(everyone.items.map((post) => post.id)).toEqual(ids.slice(2));
    });

    it.each([
      ['cursor=abc', 'cursor'],
      ['cursor=0', 'cursor'],
      ['cursor=99999999999999999999', 'cursor'],
      ['after=abc', 'after'],
      ['after=-5', 'after'],
      ['limit=0', 'limit'],
      [`limit=${limits.page.max + 1}`, 'limit'],
      ['limit=-3', 'limit'],
      ['limit=many', 'limit'],
      ['limit=2.5', 'limit'],
      ['tab=friends', 'tab'],
      ['cursor=5&after=3', 'after'],
      ['tag=%23hearth', 'tag'],
      ['tag=two%20words', 'tag'],
      [`tag=${'a'.repeat(101)}`, 'tag'],
    ])('refuses the feed query %s on the %s field', async (query, field) => {
      expectError(
        await send(t.app, 'GET', `/api/feed?${query}`, undefined, { cookie: reader.cookie }),
        400,
        'validation_failed',
        field,
      );
    });

    it('refuses a hashtag on the Following tab', async () => {
      expectError(
        await send(t.app, 'GET', '/api/feed?tab=following&tag=news', undefined, {
          cookie: reader.cookie,
        }),
        400,
        'validation_failed',
        'tag',
      );
    });

    it('lets an inactive user read every list', async () => {
      const post = await createPost(owner, 'Readable by all');
      for (const url of [
        '/api/feed',
        '/api/feed?tab=following',
        `/api/users/${owner.user.uid}/posts`,
        `/api/posts/${post.id}`,
        `/api/posts/${post.id}/likes`,
        `/api/posts/${post.id}/versions`,
      ]) {
        const response = await send(t.app, 'GET', url, undefined, { cookie: inactive.cookie });
        expect(response.statusCode, `${url}: ${response.body}`).toBe(200);
      }
    });
  });
});

describe.each(databaseTargets)('posting limits on $name', (target) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp(target);
  });
  afterAll(async () => {
    await t.close();
  });

  it(`lets one account write ${rateLimits.post.max} posts in the window, then answers 429 and writes nothing`, async () => {
    const [writer, neighbour] = await Promise.all([signUp(t.app), signUp(t.app)]);
    for (let count = 0; count < rateLimits.post.max; count += 1) {
      const response = await send(
        t.app,
        'POST',
        '/api/posts',
        { body: `Post ${count}` },
        { cookie: writer.cookie },
      );
      expect(response.statusCode, response.body).toBe(201);
    }
    const refused = await send(
      t.app,
      'POST',
      '/api/posts',
      { body: 'One too many' },
      { cookie: writer.cookie },
    );
    expectError(refused, 429, 'rate_limited');
    expect(Number(refused.headers['retry-after'])).toBeGreaterThan(0);
    const profile = await send(t.app, 'GET', `/api/users/${writer.user.uid}`);
    expect(userDocumentSchema.parse(profile.json()).counts.posts).toBe(rateLimits.post.max);
    // Counted per account, not per address: someone else still posts.
    const other = await send(
      t.app,
      'POST',
      '/api/posts',
      { body: 'Mine' },
      { cookie: neighbour.cookie },
    );
    expect(other.statusCode, other.body).toBe(201);
  });
});
