import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { postViewSchema } from '../../../shared/schemas/post.js';
import type { DatabaseHandle } from '../../db/database.js';
import {
  createTestApp,
  databaseTargets,
  openAppDatabase,
  send,
  signUp,
  type TestApp,
} from '../../test/harness.js';

const postgres = databaseTargets.find((target) => target.name === 'postgres');
if (!postgres) {
  console.error('Account-deleted-meanwhile tests skipped: set TEST_DATABASE_URL to run them.');
}

/**
 * An account deleted while one of its writes is on its way: the request was let in (its standing read
 * found the account), then its write's key to the account finds none. The race is made for real on
 * PostgreSQL: a transaction deletes the account and holds its commit until the write waits on the
 * account's row, then commits. The write answers 401, as any request of a deleted account does, and
 * leaves nothing behind; so does a like, whose refusal otherwise means its post was deleted meanwhile.
 * SQLite runs one write at a time, so it cannot be made to wait this way.
 */
describe.skipIf(!postgres)('a write of an account deleted meanwhile, on postgres', () => {
  let t: TestApp;
  let deleter: DatabaseHandle;
  let watcher: DatabaseHandle;
  let postId: string;

  beforeAll(async () => {
    if (!postgres) return;
    t = await createTestApp(postgres);
    deleter = openAppDatabase(t);
    watcher = openAppDatabase(t);
    const author = await signUp(t.app);
    const created = await send(t.app, 'POST', '/api/posts', { body: 'Talk to me' }, author);
    expect(created.statusCode, created.body).toBe(201);
    postId = postViewSchema.parse(created.json()).id;
  });
  afterAll(async () => {
    await deleter.close();
    await watcher.close();
    await t.close();
  });

  /** Whether some statement of the app waits on a row lock now. */
  async function someoneWaits(): Promise<boolean> {
    const rows = await watcher.db
      .selectFrom('pg_stat_activity' as never)
      .select('pid' as never)
      .where('wait_event_type' as never, '=', 'Lock' as never)
      .execute();
    return rows.length > 0;
  }

  /** Runs `write` while a transaction deletes `uid`, and commits that deletion once the write waits. */
  async function writeWhileDeleted(
    uid: string,
    write: () => ReturnType<typeof send>,
  ): Promise<Awaited<ReturnType<typeof send>>> {
    let answer: ReturnType<typeof send> | undefined;
    await deleter.db.transaction().execute(async (trx) => {
      await trx.deleteFrom('users').where('id', '=', uid).execute();
      answer = write();
      const deadline = Date.now() + 10_000;
      while (!(await someoneWaits())) {
        if (Date.now() > deadline) throw new Error('the write never waited on the account');
        await new Promise((resolve) => setTimeout(resolve, 20));
      }
    });
    if (!answer) throw new Error('the write was not sent');
    return answer;
  }

  it('answers a new post 401, and writes no post', async () => {
    const person = await signUp(t.app);
    const response = await writeWhileDeleted(person.user.uid, () =>
      send(t.app, 'POST', '/api/posts', { body: 'Just in time?' }, person),
    );
    expect(response.statusCode, response.body).toBe(401);
    expect(response.json()).toEqual({
      error: { code: 'unauthenticated', message: 'Your account no longer exists.' },
    });
    const left = await watcher.db
      .selectFrom('posts')
      .select('id')
      .where('body', '=', 'Just in time?')
      .execute();
    expect(left).toEqual([]);
  });

  it('answers a like 401, and counts no like', async () => {
    const person = await signUp(t.app);
    const response = await writeWhileDeleted(person.user.uid, () =>
      send(t.app, 'PUT', `/api/posts/${postId}/like`, undefined, person),
    );
    expect(response.statusCode, response.body).toBe(401);
    expect(response.json()).toEqual({
      error: { code: 'unauthenticated', message: 'Your account no longer exists.' },
    });
    const post = await send(t.app, 'GET', `/api/posts/${postId}`);
    expect(post.json<{ likeCount: number }>().likeCount).toBe(0);
  });

  it('answers a comment 401, and writes no comment', async () => {
    const person = await signUp(t.app);
    const response = await writeWhileDeleted(person.user.uid, () =>
      send(t.app, 'POST', `/api/posts/${postId}/comments`, { body: 'Just in time?' }, person),
    );
    expect(response.statusCode, response.body).toBe(401);
    expect(response.json()).toEqual({
      error: { code: 'unauthenticated', message: 'Your account no longer exists.' },
    });
    const post = await send(t.app, 'GET', `/api/posts/${postId}`);
    expect(post.json<{ commentCount: number }>().commentCount).toBe(0);
  });
});
