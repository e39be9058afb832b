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
