import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { userTopic } from '../shared/realtime.js';
import {
  connectRealtime,
  createTestApp,
  databaseTargets,
  listen,
  openAppDatabase,
  send,
  signUp,
  testOrigin,
  type TestApp,
} from './test/harness.js';

const cliPath = fileURLToPath(new URL('./cli.ts', import.meta.url));
const repoRoot = fileURLToPath(new URL('../..', import.meta.url));

interface CliResult {
  code: number | null;
  stdout: string;
  stderr: string;
}

/** Runs the operator CLI as an operator would, against `dataDir` (SQLite) and nothing else. */
function cli(dataDir: string, ...args: string[]): Promise<CliResult> {
  const env: Record<string, string> = {
    DATA_DIR: dataDir,
    PUBLIC_URL: testOrigin,
    NODE_ENV: 'test',
  };
  for (const name of ['PATH', 'HOME', 'TMPDIR']) {
    const value = process.env[name];
    if (value) env[name] = value;
  }
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['--import', 'tsx', cliPath, ...args], {
      cwd: repoRoot,
      env,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout.setEncoding('utf8').on('data', (chunk: string) => (stdout += chunk));
    child.stderr.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, stdout, stderr }));
  });
}

const lines = (text: string) => text.split('\n').filter((line) => line.trim() !== '');

// Each CLI run starts a Node process that loads TypeScript: allow for a slow machine, and let the runs of
// independent tests overlap.
const slow = { timeout: 180_000, concurrent: true };

it('lists no users on an empty database', slow, async () => {
  const dataDir = mkdtempSync(path.join(tmpdir(), 'hearth-cli-'));
  try {
    const result = await cli(dataDir, 'users', 'list');
    expect(result).toMatchObject({ code: 0, stderr: '' });
    expect(result.stdout.trim()).toBe('No users yet.');
  } finally {
    rmSync(dataDir, { recursive: true, force: true });
  }
});

describe('operator commands next to a running server', slow, () => {
  const sqlite = databaseTargets[0];
  if (!sqlite) throw new Error('no database target');
  let t: TestApp;
  let baseUrl: string;

  beforeAll(async () => {
    t = await createTestApp(sqlite);
    baseUrl = await listen(t);
  });
  afterAll(async () => {
    await t.close();
  });

  it('set-role makes an administrator, and list shows it', async () => {
    const { user, input } = await signUp(t.app);
    const result = await cli(
      t.config.dataDir,
      'users',
      'set-role',
      user.username.toUpperCase(),
      'admin',
    );
    expect(result).toMatchObject({ code: 0, stderr: '' });
    expect(result.stdout).toContain(`@${user.username} is now an administrator`);
    const document = await send(t.app, 'GET', `/api/users/${user.uid}`);
    expect(document.json()).toMatchObject({ role: 'admin' });

    const list = await cli(t.config.dataDir, 'users', 'list');
    expect(list.code).toBe(0);
    const row = lines(list.stdout).find((line) => line.startsWith(`${user.username} `));
    expect(row?.split(/\s+/)).toEqual([
      user.username,
      input.email,
      'admin',
      'yes',
      expect.stringMatching(/^\d{4}-\d\d-\d\d$/),
    ]);
  });

  it('set-active reaches a subscribed socket through the control socket', async () => {
    const { user } = await signUp(t.app);
    const client = await connectRealtime(baseUrl);
    try {
      const topic = userTopic(user.uid);
      client.send({ type: 'subscribe', topic });
      expect(await client.next()).toMatchObject({ type: 'doc', data: { active: true } });

      const result = await cli(t.config.dataDir, 'users', 'set-active', user.username, 'false');
      expect(result).toMatchObject({ code: 0, stderr: '' });
      expect(result.stdout).toContain(`@${user.username} is now inactive`);
      expect(await client.next()).toMatchObject({
        type: 'doc',
        topic,
        data: { uid: user.uid, active: false },
      });
      expect((await send(t.app, 'GET', `/api/users/${user.uid}`)).json()).toMatchObject({
        active: false,
      });
    } finally {
      await client.close();
    }
  });

  it('reset-link prints a link whose token resets the password through the API', async () => {
    const { user, input } = await signUp(t.app);
    const result = await cli(t.config.dataDir, 'users', 'reset-link', user.username);
    expect(result).toMatchObject({ code: 0, stderr: '' });
    const [link] = lines(result.stdout);
    expect(lines(result.stdout)).toHaveLength(1);
    expect(link).toMatch(/^http:\/\/hearth\.test\/reset-password\?token=[^&\s]+$/);
    const token = new URL(link ?? '').searchParams.get('token');

    const newPassword = 'a passphrase from the operator';
    const reset = await send(t.app, 'POST', '/api/auth/reset-password', { token, newPassword });
    expect(reset.statusCode).toBe(200);
    const signIn = await send(t.app, 'POST', '/api/auth/sign-in', {
      identifier: input.email,
      password: newPassword,
    });
    expect(signIn.statusCode).toBe(200);
  });

  it('fails with exit 1 and one line on stderr for an unknown user', async () => {
    const result = await cli(t.config.dataDir, 'users', 'set-role', 'no_such_person', 'admin');
    expect(result.code).toBe(1);
    expect(result.stdout).toBe('');
    expect(lines(result.stderr)).toHaveLength(1);
    expect(result.stderr).toMatch(/^hearth: .*no_such_person/);
  });

  it('refuses bad arguments with exit 2 and one line on stderr, changing nothing', async () => {
    const { user } = await signUp(t.app);
    const calls = [['users', 'set-active', user.username, 'maybe'], ['users', 'frob'], []];
    const results = await Promise.all(calls.map((args) => cli(t.config.dataDir, ...args)));
    results.forEach((result, index) => {
      const what = JSON.stringify(calls[index]);
      expect(result.code, what).toBe(2);
      expect(lines(result.stderr), what).toHaveLength(1);
      expect(result.stderr, what).toMatch(/^hearth: /);
    });
    expect((await send(t.app, 'GET', `/api/users/${user.uid}`)).json()).toMatchObject({
      role: 'user',
      active: true,
    });
  });
});

describe(
  'moderation of accounts from the command line',
  { timeout: 400_000, concurrent: true },
  () => {
    const sqlite = databaseTargets[0];
    if (!sqlite) throw new Error('no database target');
    let t: TestApp;
    const operator = { uid: null, name: 'operator', role: 'admin', operator: true } as const;

    const sessionOf = async (cookie: string) =>
      (await send(t.app, 'GET', '/api/auth/session', undefined, { cookie })).json<{
        user: { active: boolean; role: string } | null;
      }>().user;

    async function audit(action: string, targetName: string) {
      const database = openAppDatabase(t);
      try {
        return await database.db
          .selectFrom('moderation_actions')
          .select(['actorId', 'actorName', 'reason'])
          .where('action', '=', action)
          .where('targetName', '=', targetName)
          .execute();
      } finally {
        await database.close();
      }
    }

    /** A sign-up the service has already approved (the command line is slow: set-ups skip it). */
    async function approved() {
      const person = await signUp(t.app);
      await t.app.services.usersAdmin.approve(operator, person.user.uid);
      return person;
    }

    beforeAll(async () => {
      t = await createTestApp(sqlite, { REGISTRATION_MODE: 'approval' });
    }, 120_000);
    afterAll(async () => {
      await t.close();
    });

    it('approve lets a waiting sign-up in and records the operator; twice is refused', async () => {
      const { user, cookie } = await signUp(t.app);
      expect(await sessionOf(cookie)).toMatchObject({ active: false });
      const result = await cli(t.config.dataDir, 'users', 'approve', user.username);
      expect(result).toMatchObject({ code: 0, stderr: '' });
      expect(result.stdout).toContain(`@${user.username} is approved`);
      expect(await sessionOf(cookie)).toMatchObject({ active: true });
      expect(await audit('signup_approved', user.username)).toEqual([
        { actorId: null, actorName: 'operator', reason: null },
      ]);
      const again = await cli(t.config.dataDir, 'users', 'approve', user.username);
      expect(again.code).toBe(1);
      expect(again.stderr).toMatch(/^hearth: .*not waiting for approval/);
    });

    it('reject needs a reason, then deletes the sign-up', async () => {
      const { user } = await signUp(t.app);
      const [bare, result] = await Promise.all([
        cli(t.config.dataDir, 'users', 'reject', 'someone_else'),
        cli(t.config.dataDir, 'users', 'reject', user.username, '--reason', 'Not a fit'),
      ]);
      expect(bare.code).toBe(2);
      expect(bare.stderr).toMatch(/--reason/);
      expect(result).toMatchObject({ code: 0, stderr: '' });
      expect((await send(t.app, 'GET', `/api/users/${user.uid}`)).statusCode).toBe(404);
      expect(await audit('signup_rejected', user.username)).toEqual([
        { actorId: null, actorName: 'operator', reason: 'Not a fit' },
      ]);
    });

    it('set-role records the change and never demotes the last administrator', async () => {
      const { user, cookie } = await approved();
      const promoted = await cli(t.config.dataDir, 'users', 'set-role', user.username, 'admin');
      expect(promoted).toMatchObject({ code: 0, stderr: '' });
      expect(promoted.stdout).toContain('is now an administrator');
      const demoted = await cli(t.config.dataDir, 'users', 'set-role', user.username, 'moderator');
      expect(demoted.code).toBe(1);
      expect(demoted.stderr).toMatch(/last administrator/);
      expect(await sessionOf(cookie)).toMatchObject({ role: 'admin' });
      expect(await audit('role_changed', user.username)).toHaveLength(1);
    });

    it('sign-out and set-active end sessions, recorded as the operator', async () => {
      const [first, second] = await Promise.all([approved(), approved()]);
      const [signedOut, deactivated] = await Promise.all([
        cli(t.config.dataDir, 'users', 'sign-out', first.user.username),
        cli(t.config.dataDir, 'users', 'set-active', second.user.username, 'false'),
      ]);
      expect(signedOut).toMatchObject({ code: 0, stderr: '' });
      expect(deactivated).toMatchObject({ code: 0, stderr: '' });
      expect(await sessionOf(first.cookie)).toBeNull();
      expect(await sessionOf(second.cookie)).toBeNull();
      expect(await audit('sessions_revoked', first.user.username)).toHaveLength(1);
      expect(await audit('user_deactivated', second.user.username)).toHaveLength(1);
    });

    it('delete removes an account with its content, with a reason', async () => {
      const { user } = await approved();
      const result = await cli(
        t.config.dataDir,
        'users',
        'delete',
        user.username,
        '--reason',
        'Spam',
      );
      expect(result).toMatchObject({ code: 0, stderr: '' });
      expect((await send(t.app, 'GET', `/api/users/${user.uid}`)).statusCode).toBe(404);
      expect(await audit('user_deleted', user.username)).toEqual([
        { actorId: null, actorName: 'operator', reason: 'Spam' },
      ]);
    });

    it('suspend, unsuspend and warn act as the console does, recorded as the operator', async () => {
      const { user, cookie } = await approved();
      const [bare, badLength] = await Promise.all([
        cli(t.config.dataDir, 'users', 'suspend', user.username, '--for', '3d'),
        cli(t.config.dataDir, 'users', 'suspend', user.username, '--for', '2d', '--reason', 'x'),
      ]);
      expect(bare.code).toBe(2);
      expect(bare.stderr).toMatch(/--reason/);
      expect(badLength.code).toBe(2);
      expect(badLength.stderr).toMatch(/--for/);

      const suspended = await cli(
        t.config.dataDir,
        'users',
        'suspend',
        user.username,
        '--for',
        '3d',
        '--reason',
        'Spam links',
      );
      expect(suspended).toMatchObject({ code: 0, stderr: '' });
      expect(suspended.stdout).toContain(`@${user.username} is suspended until`);
      const posting = await send(t.app, 'POST', '/api/posts', { body: 'Still here' }, { cookie });
      expect(posting.statusCode).toBe(403);
      expect(posting.json<{ error: { code: string } }>().error.code).toBe('account_suspended');
      expect(await audit('user_suspended', user.username)).toEqual([
        { actorId: null, actorName: 'operator', reason: 'Spam links' },
      ]);

      const lifted = await cli(
        t.config.dataDir,
        'users',
        'unsuspend',
        user.username,
        '--reason',
        'Appeal heard',
      );
      expect(lifted).toMatchObject({ code: 0, stderr: '' });
      expect(
        (await send(t.app, 'POST', '/api/posts', { body: 'Back' }, { cookie })).statusCode,
      ).toBe(201);
      const again = await cli(
        t.config.dataDir,
        'users',
        'unsuspend',
        user.username,
        '--reason',
        'Twice',
      );
      expect(again.code).toBe(1);

      const warned = await cli(
        t.config.dataDir,
        'users',
        'warn',
        user.username,
        '--reason',
        'Calm',
      );
      expect(warned).toMatchObject({ code: 0, stderr: '' });
      expect(await audit('user_warned', user.username)).toEqual([
        { actorId: null, actorName: 'operator', reason: 'Calm' },
      ]);
    });

    it('reports list shows what is open, and dismiss closes it with a reason', async () => {
      const [author, reporter] = await Promise.all([approved(), approved()]);
      const created = await send(
        t.app,
        'POST',
        '/api/posts',
        { body: 'Reported from the shell' },
        { cookie: author.cookie },
      );
      const postId = created.json<{ id: string }>().id;
      const reported = await send(
        t.app,
        'POST',
        '/api/reports',
        { targetKind: 'post', targetId: postId, reason: 'spam' },
        { cookie: reporter.cookie },
      );
      expect(reported.statusCode, reported.body).toBe(201);
      const reportId = reported.json<{ id: string }>().id;

      const listed = await cli(t.config.dataDir, 'reports', 'list');
      expect(listed).toMatchObject({ code: 0, stderr: '' });
      expect(listed.stdout).toContain(`post ${postId} by @${author.user.username}`);
      const dismissed = await cli(
        t.config.dataDir,
        'reports',
        'dismiss',
        reportId,
        '--reason',
        'Not spam',
      );
      expect(dismissed).toMatchObject({ code: 0, stderr: '' });
      expect(dismissed.stdout).toContain('Dismissed 1 open report');
      const open = await cli(t.config.dataDir, 'reports', 'list');
      expect(open.stdout).not.toContain(`post ${postId}`);
      const resolved = await cli(t.config.dataDir, 'reports', 'list', '--status', 'resolved');
      expect(resolved.stdout).toContain(`post ${postId}`);
    });
  },
);
