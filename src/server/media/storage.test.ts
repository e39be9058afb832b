import {
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { orphanMedia } from '../../shared/limits.js';
import { userDocumentSchema } from '../../shared/schemas/user.js';
import { createTestApp, databaseTargets, send, signUp, type TestApp } from '../test/harness.js';
import * as images from '../test/images.js';
import { sendForm } from '../test/images.js';
import { S3Storage } from './s3-storage.js';
import { createStorage, LocalStorage, type MediaStorage, type S3Settings } from './storage.js';

const unsafeKeys = [
  '../x',
  'a/b/c.webp',
  '../../etc/passwd',
  'avatars/../x.webp',
  '/etc/passwd',
  'avatars/x',
  'avatars/.webp',
  'Avatars/x.webp',
  'avatars/x.webp/',
  'avatars\\..\\x.webp',
  'avatars/x.webp\u0000.png',
  'avatars/x y.webp',
  '',
];

describe('LocalStorage', () => {
  let parent: string;
  let root: string;
  // Through the interface, as the services use it.
  let storage: MediaStorage;
  beforeEach(() => {
    parent = mkdtempSync(path.join(tmpdir(), 'hearth-storage-'));
    root = path.join(parent, 'media');
    storage = new LocalStorage(root);
  });
  afterEach(() => {
    rmSync(parent, { recursive: true, force: true });
  });

  it('stores the bytes under the key, creating the folder, and leaves no partial file', async () => {
    const body = Buffer.from('pretend webp bytes');
    await storage.put('avatars/abc_DEF-123-avatar.webp', body, 'image/webp');
    expect(readFileSync(path.join(root, 'avatars', 'abc_DEF-123-avatar.webp'))).toEqual(body);
    expect(readdirSync(path.join(root, 'avatars'))).toEqual(['abc_DEF-123-avatar.webp']);
  });

  it('replaces what a key held', async () => {
    await storage.put('covers/same.webp', Buffer.from('first'), 'image/webp');
    await storage.put('covers/same.webp', Buffer.from('second'), 'image/webp');
    expect(readFileSync(path.join(root, 'covers', 'same.webp'), 'utf8')).toBe('second');
    expect(readdirSync(path.join(root, 'covers'))).toEqual(['same.webp']);
  });

  it('deletes a stored file, and a missing one is no error', async () => {
    await storage.put('avatars/gone.webp', Buffer.from('x'), 'image/webp');
    await storage.delete('avatars/gone.webp');
    expect(existsSync(path.join(root, 'avatars', 'gone.webp'))).toBe(false);
    await expect(storage.delete('avatars/never-was.webp')).resolves.toBeUndefined();
  });

  it('deletes what a write killed halfway left beside the key', async () => {
    mkdirSync(path.join(root, 'posts'), { recursive: true });
    writeFileSync(path.join(root, 'posts', 'half-feed.webp.partial'), 'half');
    await storage.delete('posts/half-feed.webp');
    expect(readdirSync(path.join(root, 'posts'))).toEqual([]);
  });

  it('serves keys under /media/ from this server', () => {
    expect(storage.url('avatars/abc-avatar.webp')).toBe('/media/avatars/abc-avatar.webp');
    expect(storage.externalOrigin).toBeNull();
  });

  it.each(unsafeKeys)('refuses the unsafe key %j for writing and deleting', async (key) => {
    // Files a path-traversing key would land on or remove.
    writeFileSync(path.join(parent, 'x'), 'keep me');
    mkdirSync(path.join(root, 'avatars'), { recursive: true });
    writeFileSync(path.join(root, 'x.webp'), 'keep me too');

    await expect(storage.put(key, Buffer.from('evil'), 'image/webp')).rejects.toThrow(/unsafe key/);
    await expect(storage.delete(key)).rejects.toThrow(/unsafe key/);
    expect(readdirSync(parent).sort()).toEqual(['media', 'x']);
    expect(readFileSync(path.join(parent, 'x'), 'utf8')).toBe('keep me');
    expect(readdirSync(root).sort()).toEqual(['avatars', 'x.webp']);
    expect(readdirSync(path.join(root, 'avatars'))).toEqual([]);
  });
});

interface StoredObject {
  body: Buffer;
  contentType: string | undefined;
  cacheControl: string | undefined;
}

/** A path-style S3 endpoint that keeps objects in memory: PUT stores, DELETE removes. */
class FakeS3 {
  readonly objects = new Map<string, StoredObject>();
  readonly requests: string[] = [];
  readonly #server: Server;

  constructor() {
    this.#server = createServer((request, response) => {
      const chunks: Buffer[] = [];
      request.on('data', (chunk: Buffer) => chunks.push(chunk));
      request.on('end', () => {
        const objectPath = decodeURIComponent(new URL(request.url ?? '/', 'http://s3').pathname);
        this.requests.push(`${request.method ?? '?'} ${objectPath}`);
        if (request.method === 'PUT') {
          this.objects.set(objectPath, {
            body: Buffer.concat(chunks),
            contentType: request.headers['content-type'],
            cacheControl: request.headers['cache-control'],
          });
          response.writeHead(200, { etag: '"fake"' }).end();
        } else if (request.method === 'DELETE') {
          this.objects.delete(objectPath);
          response.writeHead(204).end();
        } else {
          response.writeHead(405).end();
        }
      });
    });
  }

  async start(): Promise<string> {
    await new Promise<void>((resolve) => this.#server.listen(0, '127.0.0.1', resolve));
    return `http://127.0.0.1:${(this.#server.address() as AddressInfo).port}`;
  }

  async stop(): Promise<void> {
    this.#server.closeAllConnections();
    await new Promise<void>((resolve, reject) =>
      this.#server.close((error) => (error ? reject(error) : resolve())),
    );
  }
}

describe('S3Storage', () => {
  const s3 = new FakeS3();
  let settings: S3Settings;
  let storage: S3Storage;
  beforeAll(async () => {
    settings = {
      bucket: 'hearth-media',
      region: 'us-east-1',
      endpoint: await s3.start(),
      accessKeyId: 'test-key',
      secretAccessKey: 'test-secret',
      publicUrl: 'https://cdn.example.org/hearth/',
      forcePathStyle: true,
    };
    storage = new S3Storage(settings);
  });
  afterAll(async () => {
    storage.close();
    await s3.stop();
  });

  it('puts an object with its type and a year of immutable caching', async () => {
    const body = Buffer.from('pretend webp bytes');
    await storage.put('avatars/put-test-avatar.webp', body, 'image/webp');
    expect(s3.objects.get('/hearth-media/avatars/put-test-avatar.webp')).toEqual({
      body,
      contentType: 'image/webp',
      cacheControl: 'public, max-age=31536000, immutable',
    });
  });

  it('deletes an object', async () => {
    await storage.put('covers/delete-test-cover.webp', Buffer.from('x'), 'image/webp');
    expect(s3.objects.has('/hearth-media/covers/delete-test-cover.webp')).toBe(true);
    await storage.delete('covers/delete-test-cover.webp');
    expect(s3.objects.has('/hearth-media/covers/delete-test-cover.webp')).toBe(false);
  });

  it('gives public URLs under publicUrl, whose origin the CSP must allow', () => {
    expect(storage.url('avatars/abc-avatar.webp')).toBe(
      'https://cdn.example.org/hearth/avatars/abc-avatar.webp',
    );
    expect(storage.externalOrigin).toBe('https://cdn.example.org');
  });

  it.each(unsafeKeys)('refuses the unsafe key %j without asking the store', async (key) => {
    const before = s3.requests.length;
    await expect(storage.put(key, Buffer.from('evil'), 'image/webp')).rejects.toThrow(/unsafe key/);
    await expect(storage.delete(key)).rejects.toThrow(/unsafe key/);
    expect(s3.requests.slice(before)).toEqual([]);
  });
});

describe('createStorage', () => {
  it('keeps media in DATA_DIR/media without S3 settings, on S3 with them', async () => {
    const local = await createStorage({ dataDir: '/srv/hearth', s3: undefined });
    expect(local).toBeInstanceOf(LocalStorage);
    expect(local).toMatchObject({ root: path.join('/srv/hearth', 'media') });

    const remote = await createStorage({
      dataDir: '/srv/hearth',
      s3: {
        bucket: 'b',
        region: 'us-east-1',
        endpoint: undefined,
        accessKeyId: undefined,
        secretAccessKey: undefined,
        publicUrl: 'https://b.s3.us-east-1.amazonaws.com',
        forcePathStyle: false,
      },
    });
    expect(remote).toBeInstanceOf(S3Storage);
    expect(remote.url('avatars/a.webp')).toBe(
      'https://b.s3.us-east-1.amazonaws.com/avatars/a.webp',
    );
    if (remote instanceof S3Storage) remote.close();
  });
});

// Where media is stored does not depend on the database; SQLite is enough here.
const sqlite = databaseTargets[0];
if (!sqlite) throw new Error('no database target');

describe('profile images on S3', () => {
  const s3 = new FakeS3();
  const publicUrl = 'https://media.example.org/hearth';
  let t: TestApp;
  beforeAll(async () => {
    const endpoint = await s3.start();
    t = await createTestApp(sqlite, {
      S3_BUCKET: 'hearth-media',
      S3_ENDPOINT: endpoint,
      S3_FORCE_PATH_STYLE: 'true',
      S3_PUBLIC_URL: publicUrl,
      S3_ACCESS_KEY_ID: 'test-key',
      S3_SECRET_ACCESS_KEY: 'test-secret',
    });
  });
  afterAll(async () => {
    await t.close();
    await s3.stop();
  });

  it('stores the renditions in the bucket, links them by the public URL, and deletes replaced ones', async () => {
    const { user, cookie } = await signUp(t.app);
    const upload = async (bytes: Buffer) => {
      const response = await sendForm(
        t.app,
        'PATCH',
        `/api/users/${user.uid}/profile`,
        { avatar: { bytes } },
        { cookie },
      );
      expect(response.statusCode, response.body).toBe(200);
      return userDocumentSchema.parse(response.json());
    };
    const objectOf = (url: string | null) => {
      expect(url?.startsWith(`${publicUrl}/avatars/`)).toBe(true);
      return `/hearth-media/${(url ?? '').slice(publicUrl.length + 1)}`;
    };

    const first = await upload(await images.jpeg());
    for (const url of [first.avatar, first.avatarThumb]) {
      const stored = s3.objects.get(objectOf(url));
      expect(stored?.contentType).toBe('image/webp');
      expect(stored?.body.subarray(8, 12).toString('latin1')).toBe('WEBP');
    }
    // Nothing of it is written to, or served from, the local disk.
    expect(existsSync(path.join(t.config.dataDir, 'media', 'avatars'))).toBe(false);

    const second = await upload(await images.png());
    for (const url of [first.avatar, first.avatarThumb]) {
      expect(s3.objects.has(objectOf(url))).toBe(false);
    }
    for (const url of [second.avatar, second.avatarThumb]) {
      expect(s3.objects.has(objectOf(url))).toBe(true);
    }
  });

  it("lets pages load images from the bucket's origin (Content-Security-Policy img-src)", async () => {
    // A page's policy: an API answer loads nothing and carries none of it.
    const response = await send(t.app, 'GET', '/no-such-page');
    const imgSrc = String(response.headers['content-security-policy'])
      .split(';')
      .find((directive) => directive.trim().startsWith('img-src'));
    expect(imgSrc?.split(/\s+/)).toContain('https://media.example.org');
  });
});

describe('uploads that never commit, on S3', () => {
  const s3 = new FakeS3();
  let dataDir: string;
  let env: Record<string, string>;
  const apps: TestApp[] = [];
  beforeAll(async () => {
    dataDir = mkdtempSync(path.join(tmpdir(), 'hearth-s3-orphans-'));
    env = {
      S3_BUCKET: 'hearth-media',
      S3_ENDPOINT: await s3.start(),
      S3_FORCE_PATH_STYLE: 'true',
      S3_PUBLIC_URL: 'https://media.example.org/hearth',
      S3_ACCESS_KEY_ID: 'test-key',
      S3_SECRET_ACCESS_KEY: 'test-secret',
    };
  });
  afterAll(async () => {
    for (const t of apps) await t.app.close();
    await s3.stop();
    rmSync(dataDir, { recursive: true, force: true });
  });
  afterEach(() => {
    vi.restoreAllMocks();
  });

  const start = async () => {
    const t = await createTestApp(sqlite, env, { databaseUrl: undefined, dataDir });
    apps.push(t);
    return t;
  };
  const objects = () =>
    [...s3.objects.keys()].map((key) => key.slice('/hearth-media/'.length)).sort();

  it('deletes the objects of an upload whose process died, once its grace period is over', async () => {
    const first = await start();
    const { user, cookie } = await signUp(first.app);
    const upload = async (t: TestApp) =>
      sendForm(
        t.app,
        'PATCH',
        `/api/users/${user.uid}/profile`,
        { avatar: { bytes: await images.jpeg() } },
        { cookie },
      );
    const kept = userDocumentSchema.parse((await upload(first)).json());
    const keptObjects = objects();
    expect(keptObjects).toHaveLength(2);

    // The second rendition's PUT never returns: the process is killed there.
    const put = Object.getOwnPropertyDescriptor(S3Storage.prototype, 'put')?.value as (
      this: S3Storage,
      ...args: Parameters<S3Storage['put']>
    ) => Promise<void>;
    let puts = 0;
    let reached: () => void = () => undefined;
    const stalled = new Promise<void>((resolve) => (reached = resolve));
    vi.spyOn(S3Storage.prototype, 'put').mockImplementation(async function (
      this: S3Storage,
      ...args
    ) {
      puts += 1;
      if (puts > 1) {
        reached();
        return new Promise<void>(() => undefined);
      }
      return put.apply(this, args);
    });
    void upload(first).catch(() => undefined);
    await stalled;
    await first.app.close();
    apps.splice(apps.indexOf(first), 1);
    vi.restoreAllMocks();
    expect(objects()).toHaveLength(3);

    // A start within the grace period leaves it: it could be another instance's upload in flight.
    await (await start()).app.close();
    apps.pop();
    expect(objects()).toHaveLength(3);

    vi.spyOn(Date, 'now').mockReturnValue(Date.now() + orphanMedia.graceMs + 60_000);
    const next = await start();
    vi.restoreAllMocks();
    expect(objects()).toEqual(keptObjects);
    const current = userDocumentSchema.parse(
      (await send(next.app, 'GET', `/api/users/${user.uid}`)).json(),
    );
    expect(current.avatar).toBe(kept.avatar);
  });
});
