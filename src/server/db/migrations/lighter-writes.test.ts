import { Migrator, sql, type Compilable, type CompiledQuery } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { DatabaseHandle } from '../database.js';
import { migrateToLatest } from '../migrator.js';
import { migrationProvider } from './index.js';
import { capturing, indexesOf as indexesIn, planOf as planIn } from './plans.js';
import { NotificationsRepository } from '../../modules/notifications/notifications.repository.js';
import {
  createTestApp,
  databaseTargets,
  openAppDatabase,
  send,
  signUp,
  type TestApp,
} from '../../test/harness.js';

type Person = Awaited<ReturnType<typeof signUp>>;

describe.each(databaseTargets)('the write indexes of migration 0010 on $name', (target) => {
  let t: TestApp;
  let handle: DatabaseHandle;
  let alice: Person;
  let bob: Person;
  let postId: string;
  let commentId: string;

  const planOf = (query: CompiledQuery) => planIn(handle, query);
  const planOfBuilt = (query: Compilable) => planOf(query.compile());
  const indexesOf = (table: string) => indexesIn(handle, table);

  beforeAll(async () => {
    t = await createTestApp(target);
    handle = openAppDatabase(t);
    // With a few rows, PostgreSQL would read the whole table whatever its indexes: a plan that names an
    // index then says that the index can answer the query, which is what these tests ask.
    if (target.name === 'postgres') await sql`SET enable_seqscan = off`.execute(handle.db);
    alice = await signUp(t.app);
    bob = await signUp(t.app);
    const posted = await send(
      t.app,
      'POST',
      '/api/posts',
      { body: `Hello @${alice.user.username}` },
      { cookie: bob.cookie },
    );
    expect(posted.statusCode, posted.body).toBe(201);
    postId = posted.json<{ id: string }>().id;
    const liked = await send(t.app, 'PUT', `/api/posts/${postId}/like`, undefined, {
      cookie: alice.cookie,
    });
    expect(liked.statusCode, liked.body).toBe(200);
    const commented = await send(
      t.app,
      'POST',
      `/api/posts/${postId}/comments`,
      { body: 'Nice one.' },
      { cookie: alice.cookie },
    );
    expect(commented.statusCode, commented.body).toBe(201);
    commentId = commented.json<{ id: string }>().id;
    const commentLiked = await send(t.app, 'PUT', `/api/comments/${commentId}/like`, undefined, {
      cookie: bob.cookie,
    });
    expect(commentLiked.statusCode, commentLiked.body).toBe(200);
  });

  afterAll(async () => {
    await handle.close();
    await t.close();
  });

  it("reads the Mentions tab from the index of mentions alone, which no like's notification is in", async () => {
    const captured = capturing(handle);
    const repository = new NotificationsRepository(captured.db);
    const bobsMentions = await repository.heads(bob.user.uid, { tab: 'mentions', take: 20 });
    const [query] = captured.queries;
    if (!query) throw new Error('the Mentions tab ran no query');
    expect(await planOf(query)).toContain('notifications_mentions_idx');

    // Bob has a like's and a comment's notifications, and no mention: his tab is empty; Alice's holds hers.
    const bobs = await handle.db
      .selectFrom('notifications')
      .select('kind')
      .where('recipientId', '=', bob.user.uid)
      .execute();
    expect(bobs.map((row) => row.kind).sort()).toEqual(['comment', 'like']);
    expect(bobsMentions).toEqual([]);
    const alicesMentions = await repository.heads(alice.user.uid, { tab: 'mentions', take: 20 });
    expect(alicesMentions.map((head) => head.kind)).toEqual(['mention']);
  });

  it("finds a deleted post's and a deleted comment's notifications through their indexes", async () => {
    for (const [column, id] of [
      ['postId', postId],
      ['commentId', commentId],
    ] as const) {
      const index = `notifications_${column}_idx`;
      expect(
        await planOfBuilt(
          handle.db.selectFrom('notifications').select('recipientId').where(column, '=', id),
        ),
      ).toContain(index);
      expect(
        await planOfBuilt(handle.db.deleteFrom('notifications').where(column, '=', id)),
      ).toContain(index);
    }
  });

  it('keeps one like per person and post with one index over the pair, and still finds likes by post', async () => {
    const likes = await indexesOf('post_likes');
    // With the index of pending likes that migration 0014 adds (ADR 0055).
    expect([...likes.keys()].sort()).toEqual([
      'post_likes_list_idx',
      'post_likes_pending_idx',
      'post_likes_user_idx',
    ]);
    expect(likes.get('post_likes_user_idx')).toMatch(/^CREATE UNIQUE INDEX/i);
    const [row] = await handle.db
      .selectFrom('post_likes')
      .select(['postId', 'userId'])
      .where('postId', '=', postId)
      .execute();
    if (!row) throw new Error('the like was not stored');
    await expect(
      handle.db
        .insertInto('post_likes')
        .values({ ...row, createdAt: new Date().toISOString() })
        .execute(),
    ).rejects.toThrow(/unique|duplicate/i);
    const repeated = await handle.db
      .insertInto('post_likes')
      .values({ ...row, createdAt: new Date().toISOString() })
      .onConflict((oc) => oc.columns(['postId', 'userId']).doNothing())
      .returning('id')
      .execute();
    expect(repeated).toEqual([]);
    expect(
      await planOfBuilt(
        handle.db.selectFrom('post_likes').select('userId').where('postId', '=', postId),
      ),
    ).toContain('post_likes_list_idx');
  });

  it('goes down to the indexes it replaced and up again, with rows in the tables', async () => {
    const migrator = new Migrator({ db: handle.db, provider: migrationProvider });
    const down = await migrator.migrateTo('0009-search-backlog');
    expect(down.error).toBeUndefined();
    // The later migrations go down first; this one last.
    expect(down.results?.at(-1)?.migrationName).toBe('0010-lighter-writes');
    expect([...(await indexesOf('post_likes')).keys()].sort()).toEqual([
      'post_likes_list_idx',
      'post_likes_unique_idx',
      'post_likes_user_idx',
    ]);
    expect((await indexesOf('notifications')).has('notifications_kind_idx')).toBe(true);

    await migrateToLatest(handle.db);
    const notifications = await indexesOf('notifications');
    expect(notifications.has('notifications_kind_idx')).toBe(false);
    expect(notifications.get('notifications_mentions_idx')).toMatch(/WHERE.*kind.*'mention'/i);
    expect(notifications.get('notifications_commentId_idx')).toMatch(
      /WHERE.*commentId.*IS NOT NULL/i,
    );
    expect([...(await indexesOf('comment_likes')).keys()].sort()).toEqual([
      'comment_likes_list_idx',
      'comment_likes_user_idx',
    ]);
  });
});
