import { existsSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { LightMyRequestResponse } from 'fastify';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { orphanMedia } from '../../shared/limits.js';
import { PostsRepository } from '../modules/posts/posts.repository.js';
import { ProfilesRepository } from '../modules/profiles/profiles.repository.js';
import {
  createTestApp,
  databaseTargets,
  expectError,
  openAppDatabase,
  signUp,
  type TestApp,
} from '../test/harness.js';
import * as images from '../test/images.js';
import { sendForm, type FormValue } from '../test/images.js';
import { parseRenditions } from './renditions.js';
import { LocalStorage } from './storage.js';

type PutMethod = (this: LocalStorage, ...args: Parameters<LocalStorage['put']>) => Promise<void>;

/**
 * Makes LocalStorage.put stop after `allowed` writes: later writes wait until released, as a request in
 * flight does, or forever, as one in a process killed with SIGKILL does.
 */
function stallWritesAfter(allowed: number) {
  const put = Object.getOwnPropertyDescriptor(LocalStorage.prototype, 'put')?.value as PutMethod;
  let writes = 0;
  let reached: () => void = () => undefined;
  const stalled = new Promise<void>((resolve) => (reached = resolve));
  let release: () => void = () => undefined;
  const released = new Promise<void>((resolve) => (release = resolve));
  const spy = vi.spyOn(LocalStorage.prototype, 'put').mockImplementation(async function (
    this: LocalStorage,
    ...args: Parameters<PutMethod>
  ) {
    writes += 1;
    if (writes > allowed) {
      reached();
      await released;
    }
    return put.apply(this, args);
  });
  return {
    stalled,
    release: () => {
      spy.mockRestore();
      release();
    },
  };
}

afterEach(() => {
  vi.restoreAllMocks();
});

const image = async (): Promise<FormValue> => ({ bytes: await images.png(64, 48) });

describe.each(databaseTargets)('uploads that never commit, on $name', (target) => {
  let dataDir: string;
  let databaseUrl: string | undefined;
  let drop: () => Promise<void>;
  const apps: TestApp[] = [];

  async function start(): Promise<TestApp> {
    const t = await createTestApp(target, {}, { databaseUrl, dataDir });
    apps.push(t);
    return t;
  }

  afterEach(async () => {
    for (const t of apps.splice(0)) await t.app.close();
    await drop();
    rmSync(dataDir, { recursive: true, force: true });
  });

  async function fresh() {
    dataDir = mkdtempSync(path.join(tmpdir(), 'hearth-orphans-'));
    const database = await target.create();
    databaseUrl = database.url;
    drop = () => database.drop();
    return start();
  }

  const mediaRoot = () => path.join(dataDir, 'media');
  /** Every file under DATA_DIR/media, relative to it. */
  const mediaFiles = () =>
    existsSync(mediaRoot())
      ? readdirSync(mediaRoot(), { recursive: true, withFileTypes: true })
          .filter((entry) => entry.isFile())
          .map((entry) => path.relative(mediaRoot(), path.join(entry.parentPath, entry.name)))
          .sort()
      : [];

  /** Every storage key a media row references. */
  async function referencedKeys(t: TestApp): Promise<string[]> {
    const handle = openAppDatabase(t);
    try {
      const rows = await handle.db.selectFrom('media').select('renditions').execute();
      return rows
        .flatMap((row) => Object.values(parseRenditions(row.renditions)).map((r) => r.key))
        .sort();
    } finally {
      await handle.close();
    }
  }

  async function expectNothingPending(t: TestApp) {
    const handle = openAppDatabase(t);
    try {
      expect(await handle.db.selectFrom('pending_uploads').selectAll().execute()).toEqual([]);
    } finally {
      await handle.close();
    }
  }

  /** The uploads each flow sends: a profile's avatar and cover, a post's two images. */
  const flows = [
    {
      name: 'a profile update',
      send: async (t: TestApp, person: { user: { uid: string }; cookie: string }) =>
        sendForm(
          t.app,
          'PATCH',
          `/api/users/${person.user.uid}/profile`,
          { avatar: await image(), cover: await image() },
          { cookie: person.cookie },
        ),
      ok: 200,
      failWrite: () =>
        vi.spyOn(ProfilesRepository.prototype, 'apply').mockRejectedValue(new Error('disk full')),
    },
    {
      name: 'a new post',
      send: async (t: TestApp, person: { cookie: string }) =>
        sendForm(
          t.app,
          'POST',
          '/api/posts',
          { body: 'Two pictures', image0: await image(), image1: await image() },
          { cookie: person.cookie },
        ),
      ok: 201,
      failWrite: () =>
        vi.spyOn(PostsRepository.prototype, 'create').mockRejectedValue(new Error('disk full')),
    },
  ];

  it.each(flows)(
    'deletes what $name stored when its write fails, or when its process dies, and keeps what is referenced',
    async (flow) => {
      const first = await fresh();
      const person = await signUp(first.app);
      // Referenced before anything goes wrong: it must survive every sweep.
      expect((await flow.send(first, person)).statusCode).toBe(flow.ok);
      const kept = await referencedKeys(first);
      expect(kept.length).toBeGreaterThan(0);

      // The database write fails after the files are stored: the request deletes them itself.
      const failing = flow.failWrite();
      expectError(await flow.send(first, person), 500, 'internal');
      failing.mockRestore();
      expect(mediaFiles()).toEqual(kept);

      // The process dies after one file of the next upload is written: nothing of it runs again.
      const stall = stallWritesAfter(1);
      const dying: Promise<LightMyRequestResponse> = flow.send(first, person);
      void dying.catch(() => undefined);
      await stall.stalled;
      await first.app.close();
      apps.splice(apps.indexOf(first), 1);
      expect(mediaFiles().length).toBeGreaterThan(kept.length);

      // The next start, once the grace period is over, finds and deletes the orphans.
      const later = Date.now() + orphanMedia.graceMs + 60_000;
      vi.spyOn(Date, 'now').mockReturnValue(later);
      const next = await start();
      vi.mocked(Date.now).mockRestore();
      expect(mediaFiles()).toEqual(kept);
      expect(await referencedKeys(next)).toEqual(kept);
      await expectNothingPending(next);
    },
  );

  it.each(flows)(
    "never deletes another instance's upload of $name still in flight",
    async (flow) => {
      const busy = await fresh();
      const person = await signUp(busy.app);
      const stall = stallWritesAfter(1);
      const inFlight = flow.send(busy, person);
      await stall.stalled;
      const written = mediaFiles();
      expect(written.length).toBe(1);

      // Another instance starts on the same database and storage while the upload is under way.
      await start();
      expect(mediaFiles()).toEqual(written);

      stall.release();
      expect((await inFlight).statusCode).toBe(flow.ok);
      const referenced = await referencedKeys(busy);
      expect(referenced).toEqual(expect.arrayContaining(written));
      expect(mediaFiles()).toEqual(referenced);
      // Committed: its record of being in flight is gone with the request.
      await expectNothingPending(busy);
    },
  );
});
