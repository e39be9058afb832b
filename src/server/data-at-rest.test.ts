import {
  chmodSync,
  existsSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  statSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from './app.js';
import { loadConfig } from './config.js';
import {
  createTestApp,
  databaseTargets,
  newUserInput,
  send,
  signUp,
  testOrigin,
  type DatabaseTarget,
  type TestApp,
} from './test/harness.js';
import * as images from './test/images.js';
import { sendForm } from './test/images.js';

const modeOf = (file: string) => statSync(file).mode & 0o777;

/** Every folder, file and socket under `root`, with its permission bits. */
function modesUnder(root: string): { dirs: Map<string, number>; files: Map<string, number> } {
  const dirs = new Map<string, number>([[root, modeOf(root)]]);
  const files = new Map<string, number>();
  for (const entry of readdirSync(root, { recursive: true, withFileTypes: true })) {
    const full = path.join(entry.parentPath, entry.name);
    if (entry.isDirectory()) dirs.set(full, modeOf(full));
    else if (entry.isFile() || entry.isSocket()) files.set(full, modeOf(full));
  }
  return { dirs, files };
}

describe.each(databaseTargets)('data at rest on $name', (target: DatabaseTarget) => {
  describe('file modes', () => {
    let t: TestApp | undefined;
    let dataDir: string;
    let databaseUrl: string | undefined;
    let drop: () => Promise<void> = () => Promise.resolve();
    beforeAll(async () => {
      dataDir = mkdtempSync(path.join(tmpdir(), 'hearth-modes-'));
      const database = await target.create();
      databaseUrl = database.url;
      drop = () => database.drop();
    });
    afterAll(async () => {
      await t?.app.close();
      await drop();
      rmSync(dataDir, { recursive: true, force: true });
    });

    const start = async () => {
      t = await createTestApp(target, {}, { databaseUrl, dataDir });
      return t;
    };

    /** Uploads an avatar, so media folders and files exist. */
    async function storeAvatar(app: TestApp) {
      const { user, cookie } = await signUp(app.app);
      const response = await sendForm(
        app.app,
        'PATCH',
        `/api/users/${user.uid}/profile`,
        { avatar: { bytes: await images.jpeg() } },
        { cookie },
      );
      expect(response.statusCode, response.body).toBe(200);
    }

    function expectPrivate() {
      const { dirs, files } = modesUnder(dataDir);
      const expected = [
        'auth-secret',
        ...(target.name === 'sqlite' ? ['hearth.db', 'hearth.db-wal', 'hearth.db-shm'] : []),
      ];
      for (const name of expected) expect(files.has(path.join(dataDir, name)), name).toBe(true);
      expect(dirs.has(path.join(dataDir, 'media', 'avatars'))).toBe(true);
      for (const [dir, mode] of dirs) expect(mode.toString(8), dir).toBe('700');
      for (const [file, mode] of files) expect(mode.toString(8), file).toBe('600');
    }

    it('creates DATA_DIR, the database, media folders and files owner-only', async () => {
      const app = await start();
      await storeAvatar(app);
      expectPrivate();
    });

    it('makes what an earlier version left readable owner-only again at start', async () => {
      await t?.app.close();
      t = undefined;
      const { dirs, files } = modesUnder(dataDir);
      for (const dir of dirs.keys()) chmodSync(dir, 0o755);
      for (const file of files.keys()) {
        // Earlier versions wrote the secret 0600 already; media files are covered by their folders.
        if (/hearth\.db/.test(path.basename(file))) chmodSync(file, 0o644);
      }
      await start();
      expectPrivate();
    });
  });
});

// Mail and logs do not depend on the database; SQLite is enough here.
const sqlite = databaseTargets[0];
if (!sqlite) throw new Error('no database target');

describe('reset tokens and logs', () => {
  let dataDir: string;
  const lines: string[] = [];
  let app: Awaited<ReturnType<typeof buildApp>>;
  beforeAll(async () => {
    dataDir = mkdtempSync(path.join(tmpdir(), 'hearth-logs-'));
    const config = loadConfig({
      NODE_ENV: 'test',
      DATA_DIR: dataDir,
      PUBLIC_URL: testOrigin,
      WEB_DIR: path.join(dataDir, 'no-web-build'),
      LOG_LEVEL: 'trace',
    });
    app = await buildApp(config, { logStream: { write: (line) => lines.push(line) } });
    await app.ready();
  });
  afterAll(async () => {
    await app.close();
    rmSync(dataDir, { recursive: true, force: true });
  });

  const outbox = () => path.join(dataDir, 'outbox');
  const mails = () => (existsSync(outbox()) ? readdirSync(outbox()) : []);

  it('writes the reset link to the outbox file and only the file name to the log', async () => {
    const input = newUserInput();
    expect((await send(app, 'POST', '/api/auth/sign-up', input)).statusCode).toBe(201);
    const before = new Set(mails());
    const response = await send(app, 'POST', '/api/auth/request-password-reset', {
      email: input.email,
    });
    expect(response.statusCode).toBe(202);
    // Quoted-printable: soft line breaks dropped, =XX escapes decoded.
    const read = (name: string) =>
      readFileSync(path.join(outbox(), name), 'utf8')
        .replace(/=\r?\n/g, '')
        .replace(/=([0-9A-F]{2})/g, (_, hex: string) => String.fromCharCode(parseInt(hex, 16)));
    // The mail is sent after the answer, so the answer's timing says nothing about the address. Messages
    // appear whole (written beside, then renamed); the reset mail is the new one with the link.
    const resetMail = () =>
      mails().find(
        (name) =>
          !before.has(name) &&
          name.endsWith('.eml') &&
          read(name).includes('reset-password?token='),
      );
    await expect.poll(resetMail, { timeout: 10_000 }).toBeDefined();
    const file = resetMail() ?? '';
    const message = read(file);
    const token = /reset-password\?token=([A-Za-z0-9_-]+)/.exec(message)?.[1];
    expect(token).toMatch(/^[\w-]{16,}$/);
    expect(modeOf(outbox()).toString(8)).toBe('700');
    expect(modeOf(path.join(outbox(), file)).toString(8)).toBe('600');

    // Following the link loads the page with the token in its address: that is not logged either.
    await send(app, 'GET', `/reset-password?token=${token ?? ''}`);
    await send(app, 'GET', `/settings/account?emailToken=${token ?? ''}&tab=email`);

    const log = lines.join('');
    expect(log).toContain(file);
    expect(log).toContain('/reset-password');
    expect(log).not.toContain(token);
  });
});
