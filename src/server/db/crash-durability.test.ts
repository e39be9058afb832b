import { spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { sql } from 'kysely';
import { afterAll, describe, expect, it } from 'vitest';
import { databaseTargets, newUserInput } from '../test/harness.js';
import { freePort } from '../test/ports.js';
import { openDatabase } from './database.js';

/**
 * The guarantee of ADR 0029: a write the server acknowledged (answered 2xx) survives `kill -9`. The real
 * server runs as a child process under concurrent creates, likes and comments; it is killed mid-load,
 * started again on the same data, and every acknowledged write must be there, with counts that agree.
 */

const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../..');
/** Generous: the server compiles its TypeScript as it starts, on a machine that may be busy. */
const startTimeoutMs = 45_000;
/** Writers in flight at once; the kill comes once each kind has this many acknowledged (or at the limit). */
const concurrency = 12;
const acknowledgedEach = 20;
const loadLimitMs = 15_000;

interface Server {
  url: string;
  child: ChildProcess;
  exited: Promise<void>;
}

async function startServer(env: Record<string, string>): Promise<Server> {
  const port = await freePort();
  const url = `http://127.0.0.1:${port}`;
  const child = spawn(process.execPath, ['--import', 'tsx', 'src/server/main.ts'], {
    cwd: repoRoot,
    // A clean environment: nothing of the caller's (DATABASE_URL, REDIS_URL) leaks in.
    env: {
      PATH: process.env.PATH ?? '',
      HOME: process.env.HOME ?? '',
      NODE_ENV: 'production',
      HOST: '127.0.0.1',
      PORT: String(port),
      PUBLIC_URL: url,
      RATE_LIMITS: 'off',
      LOG_LEVEL: 'silent',
      ...env,
    },
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const deadline = Date.now() + startTimeoutMs;
  while (Date.now() < deadline) {
    if (child.exitCode !== null) throw new Error(`the server exited with code ${child.exitCode}`);
    try {
      if ((await fetch(`${url}/api/health`)).ok) return { url, child, exited };
    } catch {
      // Not listening yet.
    }
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  child.kill('SIGKILL');
  throw new Error('the server did not start in time');
}

async function kill(server: Server): Promise<void> {
  if (server.child.exitCode === null && server.child.signalCode === null) {
    server.child.kill('SIGKILL');
  }
  await server.exited;
}

function call(server: Server, method: string, pathname: string, body?: unknown, cookie?: string) {
  const headers: Record<string, string> = { origin: server.url };
  if (body !== undefined) headers['content-type'] = 'application/json';
  if (cookie) headers.cookie = cookie;
  return fetch(`${server.url}${pathname}`, {
    method,
    headers,
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
}

async function signUp(server: Server): Promise<{ uid: string; cookie: string }> {
  const response = await call(server, 'POST', '/api/auth/sign-up', newUserInput());
  if (response.status !== 201) throw new Error(`sign-up failed: ${response.status}`);
  const { user } = (await response.json()) as { user: { uid: string } };
  const cookie = response.headers
    .getSetCookie()
    .map((pair) => pair.split(';')[0] ?? '')
    .join('; ');
  return { uid: user.uid, cookie };
}

/** Every write the server answered 2xx, by kind. */
interface Acknowledged {
  posts: string[];
  comments: string[];
  likes: { postId: string; uid: string }[];
}

describe.each(databaseTargets)('acknowledged writes survive kill -9 on $name', (target) => {
  const cleanups: (() => Promise<void>)[] = [];
  afterAll(async () => {
    for (const cleanup of cleanups.reverse()) await cleanup();
  });

  it('keeps every acknowledged create, like and comment', { timeout: 150_000 }, async () => {
    const dataDir = mkdtempSync(path.join(tmpdir(), 'hearth-crash-'));
    cleanups.push(() => {
      rmSync(dataDir, { recursive: true, force: true });
      return Promise.resolve();
    });
    const database = await target.create();
    cleanups.push(() => database.drop());
    const env = {
      DATA_DIR: dataDir,
      AUTH_SECRET: randomBytes(32).toString('base64url'),
      ...(database.url ? { DATABASE_URL: database.url } : {}),
    };

    const first = await startServer(env);
    cleanups.push(() => kill(first));
    const people = [await signUp(first), await signUp(first), await signUp(first)];
    const [author] = people;
    if (!author) throw new Error('no author');
    const thread = await call(first, 'POST', '/api/posts', { body: 'The thread' }, author.cookie);
    expect(thread.status).toBe(201);
    const threadId = ((await thread.json()) as { id: string }).id;

    const acknowledged: Acknowledged = { posts: [threadId], comments: [], likes: [] };
    const refused: string[] = [];
    let killed = false;
    let sent = 0;
    const worker = async (w: number) => {
      for (let n = 0; !killed; n += 1) {
        const person = people[(w + n) % people.length];
        if (!person) return;
        sent += 1;
        try {
          switch ((w + n) % 3) {
            case 0: {
              const response = await call(
                first,
                'POST',
                '/api/posts',
                { body: `Written under load, ${w}.${n}` },
                person.cookie,
              );
              if (response.ok) {
                acknowledged.posts.push(((await response.json()) as { id: string }).id);
              }
              break;
            }
            case 1: {
              const response = await call(
                first,
                'POST',
                `/api/posts/${threadId}/comments`,
                { body: `A comment under load, ${w}.${n}` },
                person.cookie,
              );
              if (response.ok) {
                acknowledged.comments.push(((await response.json()) as { id: string }).id);
              } else {
                refused.push(`${response.status} ${await response.text()}`);
              }
              break;
            }
            default: {
              const postId =
                acknowledged.posts[(n * 7 + w) % acknowledged.posts.length] ?? threadId;
              const response = await call(
                first,
                'PUT',
                `/api/posts/${postId}/like`,
                undefined,
                person.cookie,
              );
              if (response.ok) acknowledged.likes.push({ postId, uid: person.uid });
            }
          }
        } catch {
          // The connection died with the server: that write was never acknowledged.
        }
      }
    };
    const load = Promise.all(Array.from({ length: concurrency }, (_, w) => worker(w)));
    const until = Date.now() + loadLimitMs;
    while (
      Date.now() < until &&
      Math.min(acknowledged.posts.length, acknowledged.comments.length, acknowledged.likes.length) <
        acknowledgedEach
    ) {
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
    // Killed while requests are in flight: no shutdown hook, no final checkpoint.
    const inFlight = sent;
    first.child.kill('SIGKILL');
    killed = true;
    await first.exited;
    await load;
    expect(inFlight).toBeGreaterThan(0);
    expect(acknowledged.posts.length).toBeGreaterThan(10);
    expect(refused.slice(0, 3)).toEqual([]);
    expect(acknowledged.comments.length).toBeGreaterThan(10);
    expect(acknowledged.likes.length).toBeGreaterThan(10);

    // Started again on the same data: it recovers and serves what it acknowledged.
    const second = await startServer(env);
    cleanups.push(() => kill(second));
    const last = acknowledged.posts.at(-1) ?? threadId;
    expect((await call(second, 'GET', `/api/posts/${last}`)).status).toBe(200);

    const handle = openDatabase({ dataDir, databaseUrl: database.url, poolSize: 1 });
    cleanups.push(() => handle.close());
    const { db } = handle;
    const posts = await db
      .selectFrom('posts')
      .select('id')
      .where('id', 'in', acknowledged.posts)
      .execute();
    expect(new Set(posts.map((row) => String(row.id)))).toEqual(new Set(acknowledged.posts));
    const comments = await db
      .selectFrom('comments')
      .select('id')
      .where('id', 'in', acknowledged.comments)
      .execute();
    expect(new Set(comments.map((row) => String(row.id)))).toEqual(new Set(acknowledged.comments));
    const likes = await db.selectFrom('post_likes').select(['postId', 'userId']).execute();
    const stored = new Set(likes.map((row) => `${String(row.postId)} ${row.userId}`));
    for (const like of acknowledged.likes) {
      expect(stored.has(`${like.postId} ${like.uid}`)).toBe(true);
    }
    // Each write's transaction is whole: no counter is ahead of or behind its rows.
    const drift = await db
      .selectFrom('posts')
      .select('id')
      .where(
        (eb) =>
          sql<boolean>`${eb.ref('likeCount')} <> (select count(*) from post_likes where post_likes."postId" = posts.id)`,
      )
      .execute();
    expect(drift).toEqual([]);
    const thread2 = await db
      .selectFrom('posts')
      .select('commentCount')
      .where('id', '=', threadId)
      .executeTakeFirstOrThrow();
    const threadComments = await db
      .selectFrom('comments')
      .select((eb) => eb.fn.countAll<number | string>().as('count'))
      .where('postId', '=', threadId)
      .executeTakeFirstOrThrow();
    expect(thread2.commentCount).toBe(Number(threadComments.count));
  });
});
