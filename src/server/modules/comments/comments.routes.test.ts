import type { LightMyRequestResponse } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { limits, rateLimits } from '../../../shared/limits.js';
import { postTopic } from '../../../shared/realtime.js';
import {
  commentPageSchema,
  commentSchema,
  likeStateSchema,
  postSchema,
  postViewSchema,
  threadPageSchema,
  type Comment,
  type Post,
  type PostView,
  type Thread,
} from '../../../shared/schemas/post.js';
import type { DatabaseHandle } from '../../db/database.js';
import {
  createTestApp,
  databaseTargets,
  expectError,
  openAppDatabase,
  send,
  signUp,
  type RealtimeClient,
} from '../../test/harness.js';
import { seededRandom } from '../../test/random.js';
import { setUpListeningApp } from '../../test/realtime-suite.js';

type Person = Awaited<ReturnType<typeof signUp>>;

describe.each(databaseTargets)('comments on $name', (target) => {
  const t = setUpListeningApp(target, { RATE_LIMITS: 'off' });
  let database: DatabaseHandle;
  /** Writes posts. */
  let postAuthor: Person;
  /** Writes comments on others' posts. */
  let writer: Person;
  /** Signed in, active, and neither wrote the post nor the comment. */
  let other: Person;
  /** Wrote a post and a comment while active, then was deactivated. */
  let inactive: Person;
  let admin: Person;
  /** Extra active people, so tests that write many comments stay under the per-account rate limit. */
  let crowd: Person[];
  let inactivePostId: string;
  let inactiveCommentId: string;

  const anonymous = { cookie: undefined };

  async function createPost(author: Person, body = 'A post to talk about.'): Promise<string> {
    const response = await send(t.app, 'POST', '/api/posts', { body }, { cookie: author.cookie });
    expect(response.statusCode, response.body).toBe(201);
    return postViewSchema.parse(response.json()).id;
  }

  const commentOn = (
    postId: string,
    body: unknown,
    as: { cookie: string | undefined },
    parentId?: string,
  ) =>
    send(
      t.app,
      'POST',
      `/api/posts/${postId}/comments`,
      parentId === undefined ? { body } : { body, parentId },
      { cookie: as.cookie },
    );

  async function comment(
    postId: string,
    as: Person,
    body = 'Nice one.',
    parentId?: string,
  ): Promise<Comment> {
    const response = await commentOn(postId, body, as, parentId);
    expect(response.statusCode, response.body).toBe(201);
    return commentSchema.parse(response.json());
  }

  async function postOf(postId: string): Promise<PostView> {
    const response = await send(t.app, 'GET', `/api/posts/${postId}`);
    expect(response.statusCode, response.body).toBe(200);
    return postViewSchema.parse(response.json());
  }

  async function threadOf(
    postId: string,
    query = '',
    as: { cookie: string | undefined } = anonymous,
  ): Promise<{ items: Thread[]; nextCursor: string | null }> {
    const response = await send(t.app, 'GET', `/api/posts/${postId}/comments${query}`, undefined, {
      cookie: as.cookie,
    });
    expect(response.statusCode, response.body).toBe(200);
    return threadPageSchema.parse(response.json());
  }

  async function repliesOf(
    commentId: string,
    query = '',
    as: { cookie: string | undefined } = anonymous,
  ): Promise<{ items: Comment[]; nextCursor: string | null }> {
    const response = await send(
      t.app,
      'GET',
      `/api/comments/${commentId}/replies${query}`,
      undefined,
      { cookie: as.cookie },
    );
    expect(response.statusCode, response.body).toBe(200);
    return commentPageSchema.parse(response.json());
  }

  /** Every comment of a post, top-level and replies, straight from the database. */
  async function rowsOf(postId: string) {
    const rows = await database.db
      .selectFrom('comments')
      .select(['id', 'parentId', 'body', 'editedAt', 'likeCount', 'replyCount'])
      .where('postId', '=', postId)
      .orderBy('id')
      .execute();
    return rows.map((row) => ({
      ...row,
      id: String(row.id),
      parentId: row.parentId === null ? null : String(row.parentId),
    }));
  }

  /** The stored counters agree with the rows they count. */
  async function expectCountersExact(postId: string) {
    const rows = await rowsOf(postId);
    const post = await database.db
      .selectFrom('posts')
      .select('commentCount')
      .where('id', '=', postId)
      .executeTakeFirstOrThrow();
    expect(post.commentCount).toBe(rows.length);
    for (const row of rows) {
      expect(row.replyCount, `replies of ${row.id}`).toBe(
        rows.filter((reply) => reply.parentId === row.id).length,
      );
      const likes = await database.db
        .selectFrom('comment_likes')
        .select('id')
        .where('commentId', '=', row.id)
        .execute();
      expect(row.likeCount, `likes of ${row.id}`).toBe(likes.length);
    }
  }

  async function subscribe(topic: string): Promise<RealtimeClient> {
    const client = await t.connect();
    client.send({ type: 'subscribe', topic });
    const snapshot = await client.next();
    expect(snapshot).toMatchObject({ type: 'doc', topic });
    return client;
  }

  /** The next `posts/{id}` document a socket receives. */
  async function nextPost(client: RealtimeClient): Promise<Post | null> {
    const message = await client.next();
    if (message.type !== 'doc') throw new Error(`expected a document, got ${message.type}`);
    return message.data === null ? null : postSchema.parse(message.data);
  }

  beforeAll(async () => {
    database = openAppDatabase(t);
    // Sign-ups hash passwords on the thread pool: in parallel they cost one sign-up's time.
    const people = await Promise.all(Array.from({ length: 9 }, () => signUp(t.app)));
    const person = (index: number) => {
      const found = people[index];
      if (!found) throw new Error(`no person ${index}`);
      return found;
    };
    postAuthor = person(0);
    writer = person(1);
    other = person(2);
    inactive = person(3);
    admin = person(4);
    crowd = people.slice(5);
    inactivePostId = await createPost(inactive, 'Written before deactivation.');
    inactiveCommentId = (await comment(inactivePostId, inactive, 'Also before.')).id;
    await t.app.services.users.setActive(inactive.user.username, false);
    await t.app.services.users.setRole(admin.user.username, 'admin');
  });
  afterAll(async () => {
    await database.close();
  });

  describe('writing', () => {
    it('writes a top-level comment and counts it on the post', async () => {
      const postId = await createPost(postAuthor);
      const before = await postOf(postId);
      const response = await commentOn(postId, '  First!\r\nSecond line.  ', writer);
      expect(response.statusCode, response.body).toBe(201);
      const created = commentSchema.parse(response.json());
      expect(created).toMatchObject({
        postId,
        parentId: null,
        body: 'First!\nSecond line.',
        editedAt: null,
        likeCount: 0,
        replyCount: 0,
        liked: false,
        author: { uid: writer.user.uid, username: writer.user.username, active: true },
      });
      expect(Date.parse(created.createdAt)).not.toBeNaN();

      const after = await postOf(postId);
      expect(after.commentCount).toBe(before.commentCount + 1);
      expect(after.commentsRevision).toBeGreaterThan(before.commentsRevision);
      expect((await threadOf(postId)).items).toEqual([{ ...created, replies: [] }]);
      await expectCountersExact(postId);
    });

    it('writes replies one level deep: a reply to a reply joins the top-level thread', async () => {
      const postId = await createPost(postAuthor);
      const top = await comment(postId, writer, 'Top');
      const reply = await comment(postId, other, 'Reply', top.id);
      expect(reply.parentId).toBe(top.id);
      const nested = await comment(postId, writer, 'Reply to the reply', reply.id);
      expect(nested.parentId).toBe(top.id);

      const { items } = await threadOf(postId);
      expect(items).toHaveLength(1);
      expect(items[0]).toMatchObject({ id: top.id, replyCount: 2 });
      expect(items[0]?.replies.map((item) => item.id)).toEqual([reply.id, nested.id]);
      expect((await postOf(postId)).commentCount).toBe(3);
      await expectCountersExact(postId);
    });

    it(`accepts ${limits.comment.max} characters as people count them and refuses one more`, async () => {
      const postId = await createPost(postAuthor);
      const longest = '👍'.repeat(limits.comment.max);
      expect((await comment(postId, writer, longest)).body).toBe(longest);
      const error = expectError(
        await commentOn(postId, `${longest}x`, writer),
        400,
        'validation_failed',
        'body',
      );
      expect(error.fields?.body).toContain(limits.comment.max.toLocaleString('en'));
      expect((await postOf(postId)).commentCount).toBe(1);
    });

    it.each([
      ['an empty body', ''],
      ['only white space', ' \n\t '],
      ['no text at all', null],
      ['a number', 42],
      ['NUL', 'a\u0000b'],
    ])('refuses %s on the body field and writes nothing', async (_name, body) => {
      const postId = await createPost(postAuthor);
      expectError(await commentOn(postId, body, writer), 400, 'validation_failed', 'body');
      expect(await rowsOf(postId)).toEqual([]);
      expect((await postOf(postId)).commentCount).toBe(0);
    });

    it('refuses malformed post ids and parent ids with a 400', async () => {
      for (const id of ['abc', '0', '01', '-1', '1.5', '12345678901234567']) {
        expectError(await commentOn(id, 'Hi', writer), 400, 'validation_failed', 'postId');
      }
      const postId = await createPost(postAuthor);
      expectError(
        await commentOn(postId, 'Hi', writer, 'not-an-id'),
        400,
        'validation_failed',
        'parentId',
      );
      expect(await rowsOf(postId)).toEqual([]);
    });

    it('answers 404 for an unknown post and an unknown parent', async () => {
      expectError(await commentOn('999999999', 'Hi', writer), 404, 'not_found');
      const postId = await createPost(postAuthor);
      expectError(await commentOn(postId, 'Hi', writer, '999999999'), 404, 'not_found');
      expect(await rowsOf(postId)).toEqual([]);
    });

    it('refuses a parent from another post on the parentId field, and writes nothing', async () => {
      const first = await createPost(postAuthor);
      const second = await createPost(postAuthor);
      const elsewhere = await comment(first, writer);
      const error = expectError(
        await commentOn(second, 'Hi', writer, elsewhere.id),
        400,
        'validation_failed',
        'parentId',
      );
      expect(error.message.length).toBeGreaterThan(0);
      expect(await rowsOf(second)).toEqual([]);
      expect((await rowsOf(first))[0]?.replyCount).toBe(0);
    });

    it('answers 404 for commenting, replying or liking on a deleted post', async () => {
      const postId = await createPost(postAuthor);
      const top = await comment(postId, writer);
      const deleted = await send(t.app, 'DELETE', `/api/posts/${postId}`, undefined, {
        cookie: postAuthor.cookie,
      });
      expect(deleted.statusCode, deleted.body).toBe(204);
      expectError(await commentOn(postId, 'Too late', writer), 404, 'not_found');
      expectError(await commentOn(postId, 'Too late', writer, top.id), 404, 'not_found');
      expectError(
        await send(t.app, 'PUT', `/api/comments/${top.id}/like`, undefined, {
          cookie: other.cookie,
        }),
        404,
        'not_found',
      );
      expectError(await send(t.app, 'GET', `/api/posts/${postId}/comments`), 404, 'not_found');
      expectError(await send(t.app, 'GET', `/api/comments/${top.id}/replies`), 404, 'not_found');
      expect(await rowsOf(postId)).toEqual([]);
    });

    it('authorisation: active users may comment; anonymous 401, inactive 403, admin 201', async () => {
      const postId = await createPost(postAuthor);
      expect((await comment(postId, postAuthor, 'On my own post')).author.uid).toBe(
        postAuthor.user.uid,
      );
      expect((await comment(postId, other, 'From someone else')).author.uid).toBe(other.user.uid);
      expect((await comment(postId, admin, 'From an admin')).author.uid).toBe(admin.user.uid);
      const counted = await postOf(postId);

      expectError(await commentOn(postId, 'Anonymous', anonymous), 401, 'unauthenticated');
      expectError(await commentOn(postId, 'Inactive', inactive), 403, 'account_inactive');
      expectError(
        await commentOn(inactivePostId, 'On my own post, while inactive', inactive),
        403,
        'account_inactive',
      );
      expect(await postOf(postId)).toEqual(counted);
      expect((await rowsOf(postId)).map((row) => row.body)).toEqual([
        'On my own post',
        'From someone else',
        'From an admin',
      ]);
      await expectCountersExact(postId);
    });

    it('refuses a write without the Origin header of this instance', async () => {
      const postId = await createPost(postAuthor);
      const response = await send(
        t.app,
        'POST',
        `/api/posts/${postId}/comments`,
        { body: 'Cross-site' },
        { cookie: writer.cookie, origin: 'https://evil.example' },
      );
      expectError(response, 403, 'origin_mismatch');
      expect(await rowsOf(postId)).toEqual([]);
    });

    it(`limits comments to ${rateLimits.comment.max} per account in ${rateLimits.comment.windowMs / 60_000} minutes`, async () => {
      // This suite's app runs without rate limits, so its many posts and comments stay quick to write.
      const limited = await createTestApp(target);
      try {
        const [author, chatty] = await Promise.all([signUp(limited.app), signUp(limited.app)]);
        const created = await send(
          limited.app,
          'POST',
          '/api/posts',
          { body: 'Talk to me' },
          { cookie: author.cookie },
        );
        const postId = postViewSchema.parse(created.json()).id;
        const commentAs = (body: string) =>
          send(
            limited.app,
            'POST',
            `/api/posts/${postId}/comments`,
            { body },
            {
              cookie: chatty.cookie,
            },
          );
        for (let index = 0; index < rateLimits.comment.max; index += 1) {
          expect((await commentAs(`Comment ${index}`)).statusCode).toBe(201);
        }
        // Every request comes from a new address: the account is what is counted.
        const error = expectError(await commentAs('One more'), 429, 'rate_limited');
        expect(error.message).toMatch(/Try again in/);
        const post = await send(limited.app, 'GET', `/api/posts/${postId}`);
        expect(postViewSchema.parse(post.json()).commentCount).toBe(rateLimits.comment.max);
      } finally {
        await limited.close();
      }
    });
  });

  describe('reading', () => {
    it('lists top-level comments oldest first with their first replies, and pages them', async () => {
      const postId = await createPost(postAuthor);
      const tops: Comment[] = [];
      for (let index = 0; index < 5; index += 1) {
        tops.push(await comment(postId, crowd[index % crowd.length] ?? writer, `Top ${index}`));
      }
      const first = tops[0];
      if (!first) throw new Error('no comment');
      const replies: Comment[] = [];
      for (let index = 0; index < limits.repliesPreview + 2; index += 1) {
        replies.push(await comment(postId, other, `Reply ${index}`, first.id));
      }
      const lastTop = await comment(postId, writer, 'Top after the replies');

      const page1 = await threadOf(postId, '?limit=2');
      expect(page1.items.map((item) => item.body)).toEqual(['Top 0', 'Top 1']);
      expect(page1.items[0]?.replyCount).toBe(replies.length);
      expect(page1.items[0]?.replies).toEqual(replies.slice(0, limits.repliesPreview));
      expect(page1.items[1]?.replies).toEqual([]);
      expect(page1.nextCursor).toBe(tops[1]?.id);

      const page2 = await threadOf(postId, `?limit=2&cursor=${page1.nextCursor}`);
      expect(page2.items.map((item) => item.body)).toEqual(['Top 2', 'Top 3']);
      const page3 = await threadOf(postId, `?limit=2&cursor=${page2.nextCursor}`);
      expect(page3.items.map((item) => item.id)).toEqual([tops[4]?.id, lastTop.id]);
      expect(page3.nextCursor).toBeNull();

      const all = await threadOf(postId);
      expect(all.items).toHaveLength(6);
      expect(all.nextCursor).toBeNull();
    });

    it('lists replies oldest first and pages them', async () => {
      const postId = await createPost(postAuthor);
      const top = await comment(postId, writer);
      const replies: Comment[] = [];
      for (let index = 0; index < 5; index += 1) {
        replies.push(
          await comment(postId, crowd[index % crowd.length] ?? other, `R${index}`, top.id),
        );
      }
      const page1 = await repliesOf(top.id, '?limit=3');
      expect(page1.items).toEqual(replies.slice(0, 3));
      expect(page1.nextCursor).toBe(replies[2]?.id);
      const page2 = await repliesOf(top.id, `?limit=3&cursor=${page1.nextCursor}`);
      expect(page2.items).toEqual(replies.slice(3));
      expect(page2.nextCursor).toBeNull();
      // A reply has no replies of its own.
      expect(await repliesOf(replies[0]?.id ?? '')).toEqual({ items: [], nextCursor: null });
    });

    it('marks what the viewer likes, in lists and replies, and nothing for anonymous readers', async () => {
      const postId = await createPost(postAuthor);
      const top = await comment(postId, writer, 'Liked');
      const plain = await comment(postId, writer, 'Not liked');
      const reply = await comment(postId, writer, 'Liked reply', top.id);
      for (const id of [top.id, reply.id]) {
        const response = await send(t.app, 'PUT', `/api/comments/${id}/like`, undefined, {
          cookie: other.cookie,
        });
        expect(response.statusCode, response.body).toBe(200);
      }

      const mine = await threadOf(postId, '', other);
      expect(mine.items.map((item) => [item.id, item.liked, item.likeCount])).toEqual([
        [top.id, true, 1],
        [plain.id, false, 0],
      ]);
      expect(mine.items[0]?.replies.map((item) => [item.id, item.liked])).toEqual([
        [reply.id, true],
      ]);
      expect((await repliesOf(top.id, '', other)).items[0]?.liked).toBe(true);

      const theirs = await threadOf(postId, '', writer);
      expect(theirs.items.every((item) => !item.liked)).toBe(true);
      const nobody = await threadOf(postId);
      expect(nobody.items.map((item) => [item.liked, item.likeCount])).toEqual([
        [false, 1],
        [false, 0],
      ]);
      expect(nobody.items[0]?.replies[0]?.liked).toBe(false);
    });

    it('answers 404 for an unknown post or comment and 400 for malformed ids, cursors and limits', async () => {
      expectError(await send(t.app, 'GET', '/api/posts/999999999/comments'), 404, 'not_found');
      expectError(await send(t.app, 'GET', '/api/comments/999999999/replies'), 404, 'not_found');
      expectError(await send(t.app, 'GET', '/api/posts/x1/comments'), 400, 'validation_failed');
      expectError(await send(t.app, 'GET', '/api/comments/0/replies'), 400, 'validation_failed');
      const postId = await createPost(postAuthor);
      for (const query of [
        '?cursor=abc',
        '?cursor=-5',
        '?limit=0',
        `?limit=${limits.page.max + 1}`,
        '?limit=two',
      ]) {
        expectError(
          await send(t.app, 'GET', `/api/posts/${postId}/comments${query}`),
          400,
          'validation_failed',
        );
      }
      expect((await threadOf(postId, `?limit=${limits.page.max}`)).items).toEqual([]);
    });

    it('pages on from a cursor that names a deleted comment', async () => {
      const postId = await createPost(postAuthor);
      const tops: Comment[] = [];
      for (let index = 0; index < 4; index += 1)
        tops.push(await comment(postId, crowd[index] ?? writer, `T${index}`));
      const page1 = await threadOf(postId, '?limit=2');
      const deleted = await send(t.app, 'DELETE', `/api/comments/${page1.nextCursor}`, undefined, {
        cookie: postAuthor.cookie,
      });
      expect(deleted.statusCode, deleted.body).toBe(204);
      const page2 = await threadOf(postId, `?limit=2&cursor=${page1.nextCursor}`);
      expect(page2.items.map((item) => item.id)).toEqual([tops[2]?.id, tops[3]?.id]);
    });

    it.each([1, 2, 3])(
      'pages top-level comments and replies without skipping or repeating while others comment (seed %i)',
      async (seed) => {
        const { next } = seededRandom(seed);
        const people = [writer, other, postAuthor, ...crowd];
        const someone = () => people[Math.floor(next() * people.length)] ?? writer;
        const postId = await createPost(postAuthor);
        const thread = await comment(postId, someone(), 'Thread');
        const present = new Set<string>([thread.id]);
        const replies = new Set<string>();
        for (let index = 0; index < 4; index += 1) {
          present.add((await comment(postId, someone(), `Early ${index}`)).id);
          replies.add((await comment(postId, someone(), `Early reply ${index}`, thread.id)).id);
        }

        /** Others comment and reply between page loads, and now and then delete something. */
        const meanwhile = async () => {
          const arrivals = Math.floor(next() * 3);
          for (let index = 0; index < arrivals; index += 1) {
            present.add((await comment(postId, someone(), 'Meanwhile')).id);
            replies.add((await comment(postId, someone(), 'Meanwhile reply', thread.id)).id);
          }
          if (next() < 0.3) {
            const candidates = [...replies];
            const victim = candidates[Math.floor(next() * candidates.length)];
            if (victim) {
              const response = await send(t.app, 'DELETE', `/api/comments/${victim}`, undefined, {
                cookie: postAuthor.cookie,
              });
              expect(response.statusCode, response.body).toBe(204);
              replies.delete(victim);
            }
          }
        };

        const collect = async (
          load: (
            cursor: string | null,
          ) => Promise<{ items: { id: string }[]; nextCursor: string | null }>,
        ) => {
          const seen: string[] = [];
          let cursor: string | null = null;
          for (let pages = 0; ; pages += 1) {
            expect(pages).toBeLessThan(100);
            const page = await load(cursor);
            seen.push(...page.items.map((item) => item.id));
            if (page.nextCursor === null) return seen;
            cursor = page.nextCursor;
            if (pages < 5) await meanwhile();
          }
        };

        const limit = 1 + Math.floor(next() * 3);
        const topIds = await collect(async (cursor) =>
          threadOf(postId, `?limit=${limit}${cursor ? `&cursor=${cursor}` : ''}`),
        );
        // What existed when each walk ended; later arrivals belong to a later walk.
        const topAtEnd = [...present];
        const replyIds = await collect(async (cursor) =>
          repliesOf(thread.id, `?limit=${limit}${cursor ? `&cursor=${cursor}` : ''}`),
        );
        const repliesAtEnd = [...replies];

        for (const [seen, expected] of [
          [topIds, topAtEnd],
          [replyIds, repliesAtEnd],
        ] as const) {
          expect(new Set(seen).size, 'no comment is shown twice').toBe(seen.length);
          expect(
            [...seen].sort((a, b) => Number(a) - Number(b)),
            'oldest first',
          ).toEqual(seen);
          // Comments still there when paging ended must all have been seen: new ones arrive at the end.
          expect(expected.filter((id) => !seen.includes(id))).toEqual([]);
        }
        await expectCountersExact(postId);
      },
    );
  });

  describe('editing', () => {
    const edit = (id: string, body: unknown, as: { cookie: string | undefined }) =>
      send(t.app, 'PATCH', `/api/comments/${id}`, { body }, { cookie: as.cookie });

    it('lets the author edit: the text changes, editedAt is set and the revision moves', async () => {
      const postId = await createPost(postAuthor);
      const original = await comment(postId, writer, 'Frist');
      const before = await postOf(postId);
      const response = await edit(original.id, ' First, actually. ', writer);
      expect(response.statusCode, response.body).toBe(200);
      const edited = commentSchema.parse(response.json());
      expect(edited).toMatchObject({
        id: original.id,
        body: 'First, actually.',
        createdAt: original.createdAt,
      });
      expect(edited.editedAt).not.toBeNull();
      const after = await postOf(postId);
      expect(after.commentCount).toBe(before.commentCount);
      expect(after.commentsRevision).toBeGreaterThan(before.commentsRevision);
      expect((await threadOf(postId)).items[0]).toMatchObject({ body: 'First, actually.' });
    });

    it('authorisation matrix: only the author; others, the post author and admins 403; anonymous 401; inactive 403', async () => {
      const postId = await createPost(postAuthor);
      const target = await comment(postId, writer, 'Mine');
      const unchanged = async () => {
        expect((await rowsOf(postId)).map((row) => [row.body, row.editedAt])).toEqual([
          ['Mine', null],
        ]);
      };
      const revision = (await postOf(postId)).commentsRevision;

      expectError(await edit(target.id, 'Hijacked', other), 403, 'forbidden');
      await unchanged();
      expectError(await edit(target.id, 'Hijacked', postAuthor), 403, 'forbidden');
      await unchanged();
      expectError(await edit(target.id, 'Moderated', admin), 403, 'forbidden');
      await unchanged();
      expectError(await edit(target.id, 'Anonymous', anonymous), 401, 'unauthenticated');
      await unchanged();
      expectError(await edit(target.id, 'Inactive', inactive), 403, 'account_inactive');
      await unchanged();
      expect((await postOf(postId)).commentsRevision).toBe(revision);

      // The inactive person's own comment stays as it was too.
      expectError(await edit(inactiveCommentId, 'Changed', inactive), 403, 'account_inactive');
      expect((await rowsOf(inactivePostId)).map((row) => row.body)).toEqual(['Also before.']);

      expect((await edit(target.id, 'Mine, edited', writer)).statusCode).toBe(200);
    });

    it('refuses bad text on the body field, and answers 404/400 for unknown and malformed ids', async () => {
      const postId = await createPost(postAuthor);
      const target = await comment(postId, writer, 'Keep');
      expectError(await edit(target.id, '', writer), 400, 'validation_failed', 'body');
      expectError(
        await edit(target.id, 'x'.repeat(limits.comment.max + 1), writer),
        400,
        'validation_failed',
        'body',
      );
      expectError(await edit('999999999', 'Hi', writer), 404, 'not_found');
      expectError(await edit('nope', 'Hi', writer), 400, 'validation_failed', 'commentId');
      expect((await rowsOf(postId)).map((row) => [row.body, row.editedAt])).toEqual([
        ['Keep', null],
      ]);
    });
  });

  describe('deleting', () => {
    const remove = (id: string, as: { cookie: string | undefined }) =>
      send(t.app, 'DELETE', `/api/comments/${id}`, undefined, { cookie: as.cookie });

    it('authorisation matrix: the comment author, the post author and admins may; others 403, anonymous 401, inactive 403', async () => {
      const postId = await createPost(postAuthor);
      const byWriter = await comment(postId, writer, 'Writer 1');
      const forPostAuthor = await comment(postId, writer, 'Writer 2');
      const forAdmin = await comment(postId, writer, 'Writer 3');
      const remaining = async () => (await rowsOf(postId)).map((row) => row.id);
      const all = [byWriter.id, forPostAuthor.id, forAdmin.id];

      expectError(await remove(byWriter.id, other), 403, 'forbidden');
      expect(await remaining()).toEqual(all);
      expectError(await remove(byWriter.id, anonymous), 401, 'unauthenticated');
      expect(await remaining()).toEqual(all);
      expectError(await remove(byWriter.id, inactive), 403, 'account_inactive');
      expect(await remaining()).toEqual(all);
      expect((await postOf(postId)).commentCount).toBe(3);

      expect((await remove(byWriter.id, writer)).statusCode).toBe(204);
      expect((await remove(forPostAuthor.id, postAuthor)).statusCode).toBe(204);
      expect((await remove(forAdmin.id, admin)).statusCode).toBe(204);
      expect(await remaining()).toEqual([]);
      expect((await postOf(postId)).commentCount).toBe(0);

      // An inactive author cannot delete their own comment either.
      expectError(await remove(inactiveCommentId, inactive), 403, 'account_inactive');
      expect((await rowsOf(inactivePostId)).map((row) => row.id)).toEqual([inactiveCommentId]);
    });

    it('deleting a top-level comment deletes its replies and their likes; counters follow', async () => {
      const postId = await createPost(postAuthor);
      const top = await comment(postId, writer, 'Top');
      const keep = await comment(postId, other, 'Another');
      const first = await comment(postId, other, 'Reply 1', top.id);
      await comment(postId, postAuthor, 'Reply 2', top.id);
      await send(t.app, 'PUT', `/api/comments/${first.id}/like`, undefined, {
        cookie: writer.cookie,
      });
      expect((await postOf(postId)).commentCount).toBe(4);
      const revision = (await postOf(postId)).commentsRevision;

      expect((await remove(top.id, writer)).statusCode).toBe(204);
      expect((await rowsOf(postId)).map((row) => row.id)).toEqual([keep.id]);
      const after = await postOf(postId);
      expect(after.commentCount).toBe(1);
      expect(after.commentsRevision).toBeGreaterThan(revision);
      const likes = await database.db
        .selectFrom('comment_likes')
        .select('id')
        .where('commentId', '=', first.id)
        .execute();
      expect(likes).toEqual([]);
      await expectCountersExact(postId);
    });

    it("deleting a reply updates its thread's reply count", async () => {
      const postId = await createPost(postAuthor);
      const top = await comment(postId, writer, 'Top');
      const reply = await comment(postId, other, 'Reply', top.id);
      await comment(postId, other, 'Reply 2', top.id);
      expect((await remove(reply.id, other)).statusCode).toBe(204);
      expect((await threadOf(postId)).items[0]).toMatchObject({ id: top.id, replyCount: 1 });
      expect((await postOf(postId)).commentCount).toBe(2);
      await expectCountersExact(postId);
    });

    it('answers 404 when deleting twice or an unknown comment, and 400 for a malformed id', async () => {
      const postId = await createPost(postAuthor);
      const target = await comment(postId, writer);
      expect((await remove(target.id, writer)).statusCode).toBe(204);
      expectError(await remove(target.id, writer), 404, 'not_found');
      expectError(await remove('999999999', admin), 404, 'not_found');
      expectError(await remove('1e3', admin), 400, 'validation_failed', 'commentId');
      expect((await postOf(postId)).commentCount).toBe(0);
    });
  });

  describe('deleted accounts', () => {
    it("a deleted account's comments, replies and likes go, and every counter stays exact", async () => {
      const leaving = await signUp(t.app);
      const postId = await createPost(postAuthor);
      const thread = await comment(postId, writer, 'Stays');
      const theirs = await comment(postId, leaving, 'Goes, with its replies');
      await comment(postId, other, 'Reply that goes too', theirs.id);
      await comment(postId, leaving, 'Reply that goes', thread.id);
      const liked = await send(t.app, 'PUT', `/api/comments/${thread.id}/like`, undefined, {
        cookie: leaving.cookie,
      });
      expect(liked.statusCode, liked.body).toBe(200);

      const deleted = await send(
        t.app,
        'POST',
        '/api/account/delete',
        { password: leaving.input.password },
        { cookie: leaving.cookie },
      );
      expect(deleted.statusCode, deleted.body).toBe(200);
      expect((await rowsOf(postId)).map((row) => row.id)).toEqual([thread.id]);
      expect((await threadOf(postId)).items).toEqual([
        expect.objectContaining({ id: thread.id, replyCount: 0, likeCount: 0, replies: [] }),
      ]);
      expect((await postOf(postId)).commentCount).toBe(1);
      await expectCountersExact(postId);
    });
  });

  describe('likes', () => {
    const like = (id: string, as: { cookie: string | undefined }) =>
      send(t.app, 'PUT', `/api/comments/${id}/like`, undefined, { cookie: as.cookie });
    const unlike = (id: string, as: { cookie: string | undefined }) =>
      send(t.app, 'DELETE', `/api/comments/${id}/like`, undefined, { cookie: as.cookie });
    const stateOf = (response: LightMyRequestResponse) => {
      expect(response.statusCode, response.body).toBe(200);
      return likeStateSchema.parse(response.json());
    };

    it('likes and unlikes idempotently, moving the revision only on a change', async () => {
      const postId = await createPost(postAuthor);
      const target = await comment(postId, writer);
      const start = (await postOf(postId)).commentsRevision;

      expect(stateOf(await like(target.id, other))).toEqual({ liked: true, likeCount: 1 });
      const liked = (await postOf(postId)).commentsRevision;
      expect(liked).toBeGreaterThan(start);
      expect(stateOf(await like(target.id, other))).toEqual({ liked: true, likeCount: 1 });
      expect((await postOf(postId)).commentsRevision).toBe(liked);

      expect(stateOf(await unlike(target.id, other))).toEqual({ liked: false, likeCount: 0 });
      const unliked = (await postOf(postId)).commentsRevision;
      expect(unliked).toBeGreaterThan(liked);
      expect(stateOf(await unlike(target.id, other))).toEqual({ liked: false, likeCount: 0 });
      expect((await postOf(postId)).commentsRevision).toBe(unliked);
      await expectCountersExact(postId);
    });

    it('counts one like per person when the same like arrives many times at once', async () => {
      const postId = await createPost(postAuthor);
      const target = await comment(postId, writer);
      const answers = await Promise.all(Array.from({ length: 8 }, () => like(target.id, other)));
      for (const answer of answers) expect(stateOf(answer).liked).toBe(true);
      const people = [writer, postAuthor, admin, ...crowd];
      await Promise.all(people.map((person) => like(target.id, person)));
      expect(stateOf(await like(target.id, other))).toEqual({
        liked: true,
        likeCount: people.length + 1,
      });
      await Promise.all(Array.from({ length: 8 }, () => unlike(target.id, other)));
      expect(stateOf(await unlike(target.id, other)).likeCount).toBe(people.length);
      await expectCountersExact(postId);
    });

    it('authorisation matrix: anyone active may like (author, other, admin); anonymous 401, inactive 403', async () => {
      const postId = await createPost(postAuthor);
      const target = await comment(postId, writer);
      const count = async () => (await rowsOf(postId))[0]?.likeCount;

      expectError(await like(target.id, anonymous), 401, 'unauthenticated');
      expectError(await like(target.id, inactive), 403, 'account_inactive');
      expectError(await like(inactiveCommentId, inactive), 403, 'account_inactive');
      expect(await count()).toBe(0);
      expect((await rowsOf(inactivePostId))[0]?.likeCount).toBe(0);

      expect(stateOf(await like(target.id, writer)).likeCount).toBe(1);
      expect(stateOf(await like(target.id, other)).likeCount).toBe(2);
      expect(stateOf(await like(target.id, admin)).likeCount).toBe(3);

      expectError(await unlike(target.id, anonymous), 401, 'unauthenticated');
      expectError(await unlike(target.id, inactive), 403, 'account_inactive');
      expect(await count()).toBe(3);
      // Unliking takes back one's own like only.
      expect(stateOf(await unlike(target.id, other))).toEqual({ liked: false, likeCount: 2 });
      expect(stateOf(await unlike(target.id, other))).toEqual({ liked: false, likeCount: 2 });
      expect(await count()).toBe(2);
      await expectCountersExact(postId);
    });

    it('answers 404 for an unknown comment and 400 for a malformed id', async () => {
      expectError(await like('999999999', other), 404, 'not_found');
      expectError(await unlike('999999999', other), 404, 'not_found');
      expectError(await like('abc', other), 400, 'validation_failed', 'commentId');
    });
  });

  describe('live updates', () => {
    it('every comment change sends the post document with its new counts and revision', async () => {
      const postId = await createPost(postAuthor);
      const client = await subscribe(postTopic(postId));
      let revision = (await postOf(postId)).commentsRevision;
      const expectNext = async (commentCount: number) => {
        const post = await nextPost(client);
        expect(post).toMatchObject({ id: postId, commentCount });
        expect(post?.commentsRevision).toBeGreaterThan(revision);
        revision = post?.commentsRevision ?? revision;
      };

      const top = await comment(postId, writer, 'Live');
      await expectNext(1);
      const reply = await comment(postId, other, 'Live reply', top.id);
      await expectNext(2);
      expect(
        (
          await send(
            t.app,
            'PATCH',
            `/api/comments/${reply.id}`,
            { body: 'Edited live' },
            { cookie: other.cookie },
          )
        ).statusCode,
      ).toBe(200);
      await expectNext(2);
      expect(
        (
          await send(t.app, 'PUT', `/api/comments/${top.id}/like`, undefined, {
            cookie: other.cookie,
          })
        ).statusCode,
      ).toBe(200);
      await expectNext(2);
      expect(
        (
          await send(t.app, 'DELETE', `/api/comments/${top.id}`, undefined, {
            cookie: writer.cookie,
          })
        ).statusCode,
      ).toBe(204);
      await expectNext(0);
      expect(revision).toBe((await postOf(postId)).commentsRevision);
    });

    it('sends nothing for requests that change nothing', async () => {
      const postId = await createPost(postAuthor);
      const target = await comment(postId, writer);
      await send(t.app, 'PUT', `/api/comments/${target.id}/like`, undefined, {
        cookie: other.cookie,
      });
      const client = await subscribe(postTopic(postId));
      await send(t.app, 'PUT', `/api/comments/${target.id}/like`, undefined, {
        cookie: other.cookie,
      });
      await send(
        t.app,
        'PATCH',
        `/api/comments/${target.id}`,
        { body: 'x' },
        { cookie: other.cookie },
      );
      await send(t.app, 'DELETE', `/api/comments/${target.id}`, undefined, {
        cookie: inactive.cookie,
      });
      await commentOn(postId, '', writer);
      expect(await client.flush()).toEqual([]);
    });
  });
});
