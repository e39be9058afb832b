import { existsSync, readdirSync } from 'node:fs';
import path from 'node:path';
import type { LightMyRequestResponse } from 'fastify';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ErrorCode } from '../../../shared/error-codes.js';
import { limits } from '../../../shared/limits.js';
import { sessionResponseSchema } from '../../../shared/schemas/auth.js';
import { userDocumentSchema, type UserDocument } from '../../../shared/schemas/user.js';
import {
  createTestApp,
  databaseTargets,
  expectError,
  newUserInput,
  openAppDatabase,
  send,
  signUp,
  type TestApp,
} from '../../test/harness.js';
import * as images from '../../test/images.js';
import { sendForm, type FormValue } from '../../test/images.js';

/** Asserts the one JSON error shape with `status` and `code`, and a message on `field` when given. */

const dayMs = 24 * 60 * 60 * 1000;

describe.each(databaseTargets)('profile editing on $name', (target) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp(target);
  });
  afterAll(async () => {
    await t.close();
  });

  const edit = (uid: string, body: unknown, cookie?: string) =>
    send(t.app, 'PATCH', `/api/users/${uid}/profile`, body, { cookie });

  const upload = (uid: string, fields: Record<string, FormValue | FormValue[]>, cookie: string) =>
    sendForm(t.app, 'PATCH', `/api/users/${uid}/profile`, fields, { cookie });

  async function documentOf(uid: string): Promise<UserDocument> {
    const response = await send(t.app, 'GET', `/api/users/${uid}`);
    expect(response.statusCode).toBe(200);
    return userDocumentSchema.parse(response.json());
  }

  /** The edit answered 200 with a valid user document, which is also what GET now serves. */
  async function expectSaved(response: LightMyRequestResponse): Promise<UserDocument> {
    expect(response.statusCode, response.body).toBe(200);
    const document = userDocumentSchema.parse(response.json());
    expect(await documentOf(document.uid)).toEqual(document);
    return document;
  }

  const mediaRoot = () => path.join(t.config.dataDir, 'media');
  /** The file behind a `/media/…` URL of a user document. */
  const fileOf = (url: string | null) => {
    expect(url).toMatch(/^\/media\//);
    return path.join(mediaRoot(), (url ?? '').slice('/media/'.length));
  };
  /** Every file under DATA_DIR/media, partial writes included (this file's app owns the folder). */
  const mediaFiles = () =>
    existsSync(mediaRoot())
      ? readdirSync(mediaRoot(), { recursive: true, withFileTypes: true })
          .filter((entry) => entry.isFile())
          .map((entry) => path.join(entry.parentPath, entry.name))
          .sort()
      : [];

  async function withAvatar() {
    const owner = await signUp(t.app);
    const document = await expectSaved(
      await upload(
        owner.user.uid,
        { avatar: { bytes: await images.jpeg(), filename: 'me.jpg', type: 'image/jpeg' } },
        owner.cookie,
      ),
    );
    expect(document.avatar).not.toBeNull();
    return { ...owner, document };
  }

  describe('text fields', () => {
    it('saves the text fields and answers the updated document', async () => {
      const { user, cookie } = await signUp(t.app);
      const document = await expectSaved(
        await edit(
          user.uid,
          {
            firstName: 'Grace',
            lastName: 'Hopper',
            displayName: 'Amazing Grace',
            bio: 'Rear admiral.\nWrote the first compiler.',
            website: 'https://example.org/grace',
          },
          cookie,
        ),
      );
      expect(document).toMatchObject({
        uid: user.uid,
        username: user.username,
        firstName: 'Grace',
        lastName: 'Hopper',
        displayName: 'Amazing Grace',
        bio: 'Rear admiral.\nWrote the first compiler.',
        website: 'https://example.org/grace',
        avatar: null,
        cover: null,
      });
      expect(JSON.stringify(document)).not.toContain('@example.test');
    });

    it('clears a field sent as empty text or null and leaves out-of-body fields alone', async () => {
      const { user, cookie } = await signUp(t.app, { firstName: 'Ada', lastName: 'Lovelace' });
      await expectSaved(
        await edit(user.uid, { bio: 'Analyst', website: 'https://example.org' }, cookie),
      );
      const cleared = await expectSaved(await edit(user.uid, { bio: '', website: null }, cookie));
      expect(cleared).toMatchObject({
        bio: null,
        website: null,
        firstName: 'Ada',
        lastName: 'Lovelace',
      });
    });

    it(`accepts a bio of ${limits.bio.max} characters and refuses one more on the bio field`, async () => {
      const { user, cookie } = await signUp(t.app);
      const longest = 'é'.repeat(limits.bio.max);
      expect((await expectSaved(await edit(user.uid, { bio: longest }, cookie))).bio).toBe(longest);
      expectError(
        await edit(user.uid, { bio: `${longest}x` }, cookie),
        400,
        'validation_failed',
        'bio',
      );
      expect((await documentOf(user.uid)).bio).toBe(longest);
    });

    it.each([
      'javascript:alert(document.cookie)',
      'JavaScript:alert(1)',
      'data:text/html,<script>alert(1)</script>',
      'ftp://example.org/file',
      'file:///etc/passwd',
      'example.org',
      'http://localhost',
      `https://example.org/${'a'.repeat(limits.website.max)}`,
    ])('refuses the website %s on the website field', async (website) => {
      const { user, cookie } = await signUp(t.app);
      expectError(await edit(user.uid, { website }, cookie), 400, 'validation_failed', 'website');
      expect((await documentOf(user.uid)).website).toBeNull();
    });

    it.each(['http://example.org', 'https://example.org/path?q=1#top'])(
      'accepts the website %s',
      async (website) => {
        const { user, cookie } = await signUp(t.app);
        expect((await expectSaved(await edit(user.uid, { website }, cookie))).website).toBe(
          website,
        );
      },
    );

    it.each([
      ['firstName', { firstName: 'x'.repeat(limits.name.max + 1) }],
      ['displayName', { displayName: 'bell\u0007' }],
      ['avatarAlt', { avatarAlt: 'x'.repeat(limits.altText.max + 1) }],
      ['username', { username: 'ab' }],
      ['username', { username: 'has space' }],
      ['username', { username: 'feed' }],
      ['removeAvatar', { removeAvatar: 'perhaps' }],
    ])('refuses a bad %s and changes nothing else in the request', async (field, bad) => {
      const { user, cookie } = await signUp(t.app);
      const before = await documentOf(user.uid);
      expectError(
        await edit(user.uid, { lastName: 'Changed', bio: 'Changed', ...bad }, cookie),
        400,
        'validation_failed',
        field,
      );
      expect(await documentOf(user.uid)).toEqual(before);
    });

    it.each(['bio', 'website', 'firstName', 'displayName', 'avatarAlt', 'coverAlt'])(
      'refuses a NUL character in %s (JSON or form) on that field, never with a 5xx',
      async (field) => {
        const { user, cookie, document } = await withAvatar();
        const value = field === 'website' ? 'https://example.org/a\u0000b' : 'before\u0000after';
        expectError(
          await edit(user.uid, { [field]: value }, cookie),
          400,
          'validation_failed',
          field,
        );
        expectError(
          await upload(user.uid, { [field]: value }, cookie),
          400,
          'validation_failed',
          field,
        );
        expect(await documentOf(user.uid)).toEqual(document);
      },
    );

    it('never lets the profile change the role, the active flag or the email', async () => {
      const { user, cookie, input } = await signUp(t.app);
      const response = await edit(
        user.uid,
        { bio: 'Hello', role: 'admin', active: false, email: 'other@example.test', uid: 'x' },
        cookie,
      );
      expect(response.statusCode).toBeLessThan(500);
      const document = await documentOf(user.uid);
      expect(document).toMatchObject({ uid: user.uid, role: 'user', active: true });
      const session = sessionResponseSchema.parse(
        (await send(t.app, 'GET', '/api/auth/session', undefined, { cookie })).json(),
      );
      expect(session.user?.email).toBe(input.email);
    });
  });

  describe('who may edit', () => {
    it('answers an anonymous edit with 401 and changes nothing', async () => {
      const { user } = await signUp(t.app);
      const before = await documentOf(user.uid);
      expectError(await edit(user.uid, { bio: 'Vandalised' }), 401, 'unauthenticated');
      expect(await documentOf(user.uid)).toEqual(before);
    });

    it("refuses another user's edit with 403 forbidden, for text and for images", async () => {
      const owner = await signUp(t.app);
      const other = await signUp(t.app);
      const before = await documentOf(owner.user.uid);
      const files = mediaFiles();
      expectError(
        await edit(owner.user.uid, { bio: 'Vandalised' }, other.cookie),
        403,
        'forbidden',
      );
      expectError(
        await upload(owner.user.uid, { avatar: { bytes: await images.jpeg() } }, other.cookie),
        403,
        'forbidden',
      );
      expect(await documentOf(owner.user.uid)).toEqual(before);
      expect(mediaFiles()).toEqual(files);
    });

    describe('authorisation matrix: only the owner edits a profile', () => {
      /** What an edit could change: the public document, the cooldown date and the stored files. */
      async function stateOf(uid: string) {
        const handle = openAppDatabase(t);
        try {
          const row = await handle.db
            .selectFrom('users')
            .select(['usernameChangedAt', 'username', 'avatarMediaId', 'coverMediaId'])
            .where('id', '=', uid)
            .executeTakeFirstOrThrow();
          return { document: await documentOf(uid), row, files: mediaFiles() };
        } finally {
          await handle.close();
        }
      }

      /** Every kind of profile edit: text and username as JSON, images as multipart, and removals. */
      async function attempts(uid: string, cookie: string | undefined) {
        const name = newUserInput().username.replace('person_', 'taken_');
        return [
          await edit(
            uid,
            { username: name, bio: 'Rewritten', displayName: 'Someone else' },
            cookie,
          ),
          await edit(uid, { removeAvatar: true, removeCover: true }, cookie),
          await edit(uid, { avatarAlt: 'Rewritten alt' }, cookie),
          await sendForm(
            t.app,
            'PATCH',
            `/api/users/${uid}/profile`,
            {
              bio: 'Rewritten',
              displayName: 'Someone else',
              avatar: { bytes: await images.jpeg() },
              cover: { bytes: await images.png(1500, 500) },
            },
            cookie ? { cookie } : {},
          ),
        ];
      }

      async function promote(username: string) {
        await t.app.services.users.setRole(username, 'admin');
      }

      const refusals: [
        string,
        (owner: Awaited<ReturnType<typeof withAvatar>>) => Promise<string | undefined>,
        number,
        ErrorCode,
      ][] = [
        ['another user', async () => (await signUp(t.app)).cookie, 403, 'forbidden'],
        [
          'an administrator editing a user',
          async () => {
            const admin = await signUp(t.app);
            await promote(admin.user.username);
            return admin.cookie;
          },
          403,
          'forbidden',
        ],
        [
          'an administrator editing another administrator',
          async (owner) => {
            await promote(owner.user.username);
            const admin = await signUp(t.app);
            await promote(admin.user.username);
            return admin.cookie;
          },
          403,
          'forbidden',
        ],
        ['anonymous', () => Promise.resolve(undefined), 401, 'unauthenticated'],
        [
          'the owner, inactive',
          async (owner) => {
            await t.app.services.users.setActive(owner.user.username, false);
            return owner.cookie;
          },
          403,
          'account_inactive',
        ],
      ];

      it.each(refusals)(
        'refuses %s and changes nothing, cooldown included',
        async (_who, actor, status, code) => {
          const owner = await withAvatar();
          const cookie = await actor(owner);
          const before = await stateOf(owner.user.uid);
          expect(before.row.usernameChangedAt).toBeNull();
          for (const response of await attempts(owner.user.uid, cookie)) {
            expectError(response, status, code);
          }
          expect(await stateOf(owner.user.uid)).toEqual(before);
        },
      );

      it('lets the owner edit every field, and only their own change starts their cooldown', async () => {
        const owner = await withAvatar();
        // What an operator does (the CLI calls these services) starts no cooldown either.
        await promote(owner.user.username);
        await t.app.services.users.setActive(owner.user.username, false);
        await t.app.services.users.setActive(owner.user.username, true);
        expect((await stateOf(owner.user.uid)).row.usernameChangedAt).toBeNull();

        const responses = await attempts(owner.user.uid, owner.cookie);
        for (const response of responses) expect(response.statusCode, response.body).toBe(200);
        const after = await stateOf(owner.user.uid);
        expect(after.row.usernameChangedAt).not.toBeNull();
        expect(after.document).toMatchObject({ bio: 'Rewritten', role: 'admin' });
        expect(after.document.avatar).not.toBeNull();
      });
    });

    it('refuses an inactive owner with 403 account_inactive and stores no file', async () => {
      const { user, cookie } = await signUp(t.app);
      await t.app.services.users.setActive(user.username, false);
      const before = await documentOf(user.uid);
      const files = mediaFiles();
      expectError(await edit(user.uid, { bio: 'Hello' }, cookie), 403, 'account_inactive');
      expectError(
        await upload(user.uid, { avatar: { bytes: await images.jpeg() } }, cookie),
        403,
        'account_inactive',
      );
      expect(await documentOf(user.uid)).toEqual(before);
      expect(mediaFiles()).toEqual(files);
    });

    it('answers 404 for a user that does not exist', async () => {
      const { cookie } = await signUp(t.app);
      expectError(await edit('NoSuchUser_123', { bio: 'Hello' }, cookie), 404, 'not_found');
    });
  });

  describe('usernames', () => {
    /** Moves the last username change back by `days`, as if that time had passed. */
    async function backdateRename(uid: string, days: number) {
      const handle = openAppDatabase(t);
      try {
        const result = await handle.db
          .updateTable('users')
          .set({ usernameChangedAt: new Date(Date.now() - days * dayMs).toISOString() })
          .where('id', '=', uid)
          .executeTakeFirst();
        expect(Number(result.numUpdatedRows)).toBe(1);
      } finally {
        await handle.close();
      }
    }

    const freshName = () => newUserInput().username.replace('person_', 'renamed_');

    it('renames, lowercased; the old name then finds the account; the next change waits 30 days', async () => {
      const { user, cookie } = await signUp(t.app);
      const next = freshName();
      const document = await expectSaved(
        await edit(user.uid, { username: next.toUpperCase() }, cookie),
      );
      expect(document.username).toBe(next);

      const byOldName = await send(t.app, 'GET', `/api/users/by-username/${user.username}`);
      expect(byOldName.statusCode).toBe(200);
      expect(byOldName.json()).toEqual(document);

      const me = sessionResponseSchema.parse(
        (await send(t.app, 'GET', '/api/auth/session', undefined, { cookie })).json(),
      ).user;
      const availableAt = new Date(me?.usernameChangeAvailableAt ?? 0).getTime();
      expect(availableAt).toBeGreaterThan(Date.now() + 29 * dayMs);
      expect(availableAt).toBeLessThanOrEqual(
        Date.now() + limits.usernameChange.cooldownDays * dayMs,
      );

      const again = expectError(
        await edit(user.uid, { username: freshName() }, cookie),
        400,
        'validation_failed',
        'username',
      );
      expect(again.fields?.username).toMatch(/change it again on/);
      expect((await documentOf(user.uid)).username).toBe(next);
    });

    it('allows the next change once 30 days have passed', async () => {
      const { user, cookie } = await signUp(t.app);
      await expectSaved(await edit(user.uid, { username: freshName() }, cookie));
      await backdateRename(user.uid, limits.usernameChange.cooldownDays + 1);
      const third = freshName();
      expect((await expectSaved(await edit(user.uid, { username: third }, cookie))).username).toBe(
        third,
      );
    });

    it('sending the current name is no change and starts no waiting period', async () => {
      const { user, cookie } = await signUp(t.app);
      await expectSaved(await edit(user.uid, { username: user.username.toUpperCase() }, cookie));
      const next = freshName();
      expect((await expectSaved(await edit(user.uid, { username: next }, cookie))).username).toBe(
        next,
      );
    });

    it('keeps the old name from everyone else: sign-up and renames get 409 on username', async () => {
      const owner = await signUp(t.app);
      const old = owner.user.username;
      await expectSaved(await edit(owner.user.uid, { username: freshName() }, owner.cookie));

      for (const username of [old, old.toUpperCase()]) {
        expectError(
          await send(t.app, 'POST', '/api/auth/sign-up', newUserInput({ username })),
          409,
          'conflict',
          'username',
        );
      }
      const other = await signUp(t.app);
      expectError(
        await edit(other.user.uid, { username: old }, other.cookie),
        409,
        'conflict',
        'username',
      );
      expect((await documentOf(other.user.uid)).username).toBe(other.user.username);
      expect((await send(t.app, 'GET', `/api/users/by-username/${old}`)).json()).toMatchObject({
        uid: owner.user.uid,
      });
    });

    it('refuses a name another account holds with 409', async () => {
      const holder = await signUp(t.app);
      const { user, cookie } = await signUp(t.app);
      expectError(
        await edit(user.uid, { username: holder.user.username.toUpperCase() }, cookie),
        409,
        'conflict',
        'username',
      );
      expect((await documentOf(user.uid)).username).toBe(user.username);
    });

    it('lets the owner take the old name back', async () => {
      const { user, cookie } = await signUp(t.app);
      const interim = freshName();
      await expectSaved(await edit(user.uid, { username: interim }, cookie));
      await backdateRename(user.uid, limits.usernameChange.cooldownDays + 1);

      const back = await expectSaved(await edit(user.uid, { username: user.username }, cookie));
      expect(back.username).toBe(user.username);
      expect((await send(t.app, 'GET', `/api/users/by-username/${user.username}`)).json()).toEqual(
        back,
      );
      // The name given up in between is now the one that redirects, and stays reserved.
      expect((await send(t.app, 'GET', `/api/users/by-username/${interim}`)).json()).toEqual(back);
      expectError(
        await send(t.app, 'POST', '/api/auth/sign-up', newUserInput({ username: interim })),
        409,
        'conflict',
        'username',
      );
    });

    it('frees the old name when its 90 days are over', async () => {
      const { user, cookie } = await signUp(t.app);
      await expectSaved(await edit(user.uid, { username: freshName() }, cookie));
      const handle = openAppDatabase(t);
      try {
        const result = await handle.db
          .updateTable('released_usernames')
          .set({ reservedUntil: new Date(Date.now() - 60_000).toISOString() })
          .where('username', '=', user.username)
          .executeTakeFirst();
        expect(Number(result.numUpdatedRows)).toBe(1);
      } finally {
        await handle.close();
      }
      expect((await send(t.app, 'GET', `/api/users/by-username/${user.username}`)).statusCode).toBe(
        404,
      );
      const newcomer = await signUp(t.app, { username: user.username });
      expect(newcomer.user.username).toBe(user.username);
    });
  });

  describe('images', () => {
    /** Fetches a stored rendition through /media and checks how it is served. */
    async function served(url: string | null) {
      expect(url).toMatch(/^\/media\/[a-z]+\/[A-Za-z0-9_-]+\.webp$/);
      const response = await send(t.app, 'GET', url ?? '');
      expect(response.statusCode).toBe(200);
      expect(response.headers['content-type']).toBe('image/webp');
      expect(String(response.headers['cache-control'])).toMatch(/\bimmutable\b/);
      expect(String(response.headers['cache-control'])).toMatch(/max-age=31536000/);
      expect(response.headers['x-content-type-options']).toBe('nosniff');
      return response.rawPayload;
    }

    it('stores an avatar as 400×400 and 96×96 WebP without its EXIF or GPS, served immutable', async () => {
      const { user, cookie } = await signUp(t.app);
      const photo = await images.jpegWithGps(800, 600);
      const document = await expectSaved(
        await upload(
          user.uid,
          {
            avatar: { bytes: photo, filename: 'IMG_0001.jpg', type: 'image/jpeg' },
            avatarAlt: 'Me, smiling',
          },
          cookie,
        ),
      );
      expect(document.avatar).toMatch(/^\/media\/avatars\/[A-Za-z0-9_-]+-avatar\.webp$/);
      expect(document.avatarThumb).toMatch(/^\/media\/avatars\/[A-Za-z0-9_-]+-thumb\.webp$/);
      expect(document.avatarAlt).toBe('Me, smiling');

      for (const [url, size] of [
        [document.avatar, 400],
        [document.avatarThumb, 96],
      ] as const) {
        const body = await served(url);
        const metadata = await sharp(body).metadata();
        expect(metadata).toMatchObject({ format: 'webp', width: size, height: size });
        expect(metadata.exif).toBeUndefined();
        expect(metadata.xmp).toBeUndefined();
        expect(body.includes(images.cameraMake)).toBe(false);
        expect(existsSync(fileOf(url))).toBe(true);
      }
    });

    it('stores a cover as a 1500×500 WebP', async () => {
      const { user, cookie } = await signUp(t.app);
      const document = await expectSaved(
        await upload(
          user.uid,
          { cover: { bytes: await images.png(1600, 900) }, coverAlt: 'Mountains' },
          cookie,
        ),
      );
      expect(document.cover).toMatch(/^\/media\/covers\/[A-Za-z0-9_-]+-cover\.webp$/);
      expect(document.coverAlt).toBe('Mountains');
      expect(document.avatar).toBeNull();
      const metadata = await sharp(await served(document.cover)).metadata();
      expect(metadata).toMatchObject({ format: 'webp', width: 1500, height: 500 });
      expect(document.coverSmall).toMatch(/^\/media\/covers\/[A-Za-z0-9_-]+-coverSmall\.webp$/);
      const small = await sharp(await served(document.coverSmall)).metadata();
      expect(small).toMatchObject({ format: 'webp', width: 750, height: 250 });
    });

    it.each([
      ['PNG', images.png],
      ['WebP', images.webp],
      ['GIF', images.gif],
      ['AVIF', images.avif],
    ])('accepts a %s avatar', async (_format, make) => {
      const { user, cookie } = await signUp(t.app);
      const document = await expectSaved(
        await upload(user.uid, { avatar: { bytes: await make() } }, cookie),
      );
      const metadata = await sharp(await served(document.avatar)).metadata();
      expect(metadata).toMatchObject({ format: 'webp', width: 400, height: 400 });
    });

    it('goes by the bytes, not by the file name or the declared type', async () => {
      const { user, cookie } = await signUp(t.app);
      await expectSaved(
        await upload(
          user.uid,
          { avatar: { bytes: await images.png(), filename: 'notes.txt', type: 'text/plain' } },
          cookie,
        ),
      );
      expectError(
        await upload(
          user.uid,
          { avatar: { bytes: images.notImages.html, filename: 'face.png', type: 'image/png' } },
          cookie,
        ),
        415,
        'unsupported_media_type',
        'avatar',
      );
    });

    it('saves text fields and images from one multipart form', async () => {
      const { user, cookie } = await signUp(t.app);
      const document = await expectSaved(
        await upload(
          user.uid,
          {
            bio: 'Sent with a form',
            website: 'https://example.org',
            avatar: { bytes: await images.jpeg() },
            cover: { bytes: await images.webp(1500, 500) },
          },
          cookie,
        ),
      );
      expect(document).toMatchObject({ bio: 'Sent with a form', website: 'https://example.org' });
      expect(document.avatar).not.toBeNull();
      expect(document.cover).not.toBeNull();
    });

    it('deletes the files of a replaced avatar', async () => {
      const { user, cookie, document: first } = await withAvatar();
      const second = await expectSaved(
        await upload(user.uid, { avatar: { bytes: await images.png() } }, cookie),
      );
      expect(second.avatar).not.toBe(first.avatar);
      for (const url of [first.avatar, first.avatarThumb]) {
        expect(existsSync(fileOf(url))).toBe(false);
        expect((await send(t.app, 'GET', url ?? '')).statusCode).toBe(404);
      }
      for (const url of [second.avatar, second.avatarThumb]) {
        expect(existsSync(fileOf(url))).toBe(true);
      }
    });

    it('removes an avatar (JSON) and a cover (form field) and deletes their files', async () => {
      const { user, cookie } = await signUp(t.app);
      const withImages = await expectSaved(
        await upload(
          user.uid,
          {
            avatar: { bytes: await images.jpeg() },
            avatarAlt: 'Face',
            cover: { bytes: await images.jpeg(1500, 500) },
          },
          cookie,
        ),
      );
      const files = [
        withImages.avatar,
        withImages.avatarThumb,
        withImages.cover,
        withImages.coverSmall,
      ].map(fileOf);
      for (const file of files) expect(existsSync(file)).toBe(true);

      const noAvatar = await expectSaved(await edit(user.uid, { removeAvatar: true }, cookie));
      expect(noAvatar).toMatchObject({ avatar: null, avatarThumb: null, avatarAlt: null });
      expect(noAvatar.cover).toBe(withImages.cover);
      const noCover = await expectSaved(await upload(user.uid, { removeCover: 'true' }, cookie));
      expect(noCover).toMatchObject({ cover: null, coverSmall: null, coverAlt: null });
      for (const file of files) expect(existsSync(file)).toBe(false);
    });

    it('changes the alt text alone, keeping the image', async () => {
      const { user, cookie, document } = await withAvatar();
      const changed = await expectSaved(
        await edit(user.uid, { avatarAlt: 'A new description' }, cookie),
      );
      expect(changed).toMatchObject({
        avatar: document.avatar,
        avatarThumb: document.avatarThumb,
        avatarAlt: 'A new description',
      });
    });

    it('takes an empty file input (nothing chosen) as no change', async () => {
      const { user, cookie, document } = await withAvatar();
      const response = await upload(
        user.uid,
        { bio: 'Only the bio', avatar: { bytes: Buffer.alloc(0), filename: '' } },
        cookie,
      );
      expect(await expectSaved(response)).toEqual({ ...document, bio: 'Only the bio' });
    });

    describe('a refused upload writes nothing', () => {
      it.each([
        ['a text file', 415, 'unsupported_media_type', () => images.notImages.text],
        ['an SVG', 415, 'unsupported_media_type', () => images.notImages.svg],
        ['an HTML page', 415, 'unsupported_media_type', () => images.notImages.html],
        ['a truncated JPEG', 400, 'validation_failed', () => images.truncatedJpeg()],
        ['an empty file', 400, 'validation_failed', () => Buffer.alloc(0)],
        ['a 2.5-gigapixel PNG', 413, 'payload_too_large', () => images.pngFlood()],
        [
          'a file over 10 MB',
          413,
          'payload_too_large',
          () => images.paddedJpeg(limits.upload.maxBytes + 1),
        ],
      ] as const)(
        '%s is refused on the avatar field with %i, and the profile and files stay as they were',
        async (_what, status, code, make) => {
          const { user, cookie } = await withAvatar();
          const before = await documentOf(user.uid);
          const files = mediaFiles();
          expectError(
            await upload(
              user.uid,
              {
                bio: 'Should not be saved',
                avatarAlt: 'Should not be saved',
                avatar: { bytes: await make(), filename: 'upload.jpg', type: 'image/jpeg' },
              },
              cookie,
            ),
            status,
            code,
            'avatar',
          );
          expect(await documentOf(user.uid)).toEqual(before);
          expect(mediaFiles()).toEqual(files);
          await served(before.avatar);
        },
      );

      it('a good avatar with a bad cover stores neither', async () => {
        const { user, cookie } = await signUp(t.app);
        const before = await documentOf(user.uid);
        const files = mediaFiles();
        expectError(
          await upload(
            user.uid,
            {
              avatar: { bytes: await images.jpeg() },
              cover: { bytes: images.notImages.svg, type: 'image/svg+xml' },
            },
            cookie,
          ),
          415,
          'unsupported_media_type',
          'cover',
        );
        expect(await documentOf(user.uid)).toEqual(before);
        expect(mediaFiles()).toEqual(files);
      });

      it('good images with a taken username store nothing', async () => {
        const holder = await signUp(t.app);
        const { user, cookie } = await signUp(t.app);
        const before = await documentOf(user.uid);
        const files = mediaFiles();
        expectError(
          await upload(
            user.uid,
            {
              username: holder.user.username,
              avatar: { bytes: await images.jpeg() },
              cover: { bytes: await images.jpeg(1500, 500) },
            },
            cookie,
          ),
          409,
          'conflict',
          'username',
        );
        expect(await documentOf(user.uid)).toEqual(before);
        expect(mediaFiles()).toEqual(files);
      });

      it('a new avatar together with its removal is refused', async () => {
        const { user, cookie, document } = await withAvatar();
        const files = mediaFiles();
        expectError(
          await upload(
            user.uid,
            { avatar: { bytes: await images.png() }, removeAvatar: 'true' },
            cookie,
          ),
          400,
          'validation_failed',
          'avatar',
        );
        expect(await documentOf(user.uid)).toEqual(document);
        expect(mediaFiles()).toEqual(files);
      });

      it('a file in a field that takes none, or two files for one image, is refused', async () => {
        const { user, cookie, document } = await withAvatar();
        const files = mediaFiles();
        expectError(
          await upload(user.uid, { banner: { bytes: await images.jpeg() } }, cookie),
          400,
          'validation_failed',
          'banner',
        );
        expectError(
          await upload(
            user.uid,
            { avatar: [{ bytes: await images.jpeg() }, { bytes: await images.png() }] },
            cookie,
          ),
          400,
          'validation_failed',
          'avatar',
        );
        expect(await documentOf(user.uid)).toEqual(document);
        expect(mediaFiles()).toEqual(files);
      });
    });
  });
});
