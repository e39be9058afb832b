import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { DatabaseHandle } from '../../db/database.js';
import { postViewSchema } from '../../../shared/schemas/post.js';
import * as images from '../../test/images.js';
import { sendForm } from '../../test/images.js';
import {
  createTestApp,
  databaseTargets,
  openAppDatabase,
  send,
  signUp,
  type TestApp,
} from '../../test/harness.js';
import { PostsRepository } from './posts.repository.js';

type Person = Awaited<ReturnType<typeof signUp>>;
type Plugin = Parameters<DatabaseHandle['db']['withPlugin']>[0];

/**
 * Counts the statements a database runs through Kysely, as their results come back (prepared queries are
 * compiled once, so it is not counted at compile time; a transaction's BEGIN and COMMIT are not counted).
 */
function statementCounter(): Plugin & { count: number } {
  const counter = {
    count: 0,
    transformQuery: (args: Parameters<Plugin['transformQuery']>[0]) => args.node,
    transformResult: (args: Parameters<Plugin['transformResult']>[0]) => {
      counter.count += 1;
      return Promise.resolve(args.result);
    },
  };
  return counter;
}

/**
 * The busiest writes (ADR 0048): a like, and a new post of text alone, are one statement on PostgreSQL
 * and a transaction on SQLite, with the same outcome on both, including a post deleted between the like's
 * read and its write.
 */
describe.each(databaseTargets)('likes and new posts written on $name', (target) => {
  let t: TestApp;
  let database: DatabaseHandle;
  let author: Person;
  let fans: Person[];
  const counter = statementCounter();
  let posts: PostsRepository;

  async function newPost(body: string): Promise<string> {
    const response = await send(t.app, 'POST', '/api/posts', { body }, { cookie: author.cookie });
    expect(response.statusCode, response.body).toBe(201);
    return postViewSchema.parse(response.json()).id;
  }

  async function notificationRows(postId: string) {
    return database.db
      .selectFrom('notifications')
      .select(['recipientId', 'actorId', 'kind', 'groupKey'])
      .where('postId', '=', postId)
      .execute();
  }

  beforeAll(async () => {
    t = await createTestApp(target);
    database = openAppDatabase(t);
    posts = new PostsRepository(database.db.withPlugin(counter));
    [author, ...fans] = await Promise.all([signUp(t.app), signUp(t.app), signUp(t.app)]);
  });
  afterAll(async () => {
    await database.close();
    await t.close();
  });

  async function pendingOf(postId: string) {
    return database.db
      .selectFrom('post_likes')
      .select(['userId', 'pendingRecipientId'])
      .where('postId', '=', postId)
      .execute();
  }

  it("writes the like and the count once, leaves the notification for the author's bell, and a repeat writes nothing", async () => {
    const [fan] = fans;
    if (!fan) throw new Error('no fan');
    const postId = await newPost('Like me once');
    const liked = await posts.likeTarget(postId, fan.user.uid);
    if (!liked) throw new Error('the post was not read');

    counter.count = 0;
    const first = await posts.like(liked, fan.user.uid);
    // The like and its count: one statement on PostgreSQL, two on SQLite, and no notification yet.
    expect(counter.count).toBe(target.name === 'postgres' ? 1 : 2);
    expect(first?.changed).toBe(true);
    expect(first?.record.likeCount).toBe(1);
    expect(first?.record.body).toBe('Like me once');
    expect(first?.notified).toEqual({
      deliveries: [],
      withdrawn: [],
      pending: [author.user.uid],
    });
    expect(await notificationRows(postId)).toEqual([]);
    expect(await pendingOf(postId)).toEqual([
      { userId: fan.user.uid, pendingRecipientId: author.user.uid },
    ]);

    // The author's bell is read: the notification is written then, and the like is no longer pending.
    const bell = await send(t.app, 'GET', '/api/notifications/unread', undefined, {
      cookie: author.cookie,
    });
    expect(bell.statusCode, bell.body).toBe(200);
    expect(bell.json()).toMatchObject({ unread: 1 });
    expect(await notificationRows(postId)).toEqual([
      {
        recipientId: author.user.uid,
        actorId: fan.user.uid,
        kind: 'like',
        groupKey: `like:${postId}`,
      },
    ]);
    expect(await pendingOf(postId)).toEqual([{ userId: fan.user.uid, pendingRecipientId: null }]);

    const repeat = await posts.like(liked, fan.user.uid);
    expect(repeat).toMatchObject({ changed: false, notified: { deliveries: [], withdrawn: [] } });
    const stored = await posts.findById(postId);
    expect(stored?.likeCount).toBe(1);
    expect(await notificationRows(postId)).toHaveLength(1);
    expect(await pendingOf(postId)).toEqual([{ userId: fan.user.uid, pendingRecipientId: null }]);
  });

  it('writes the notification with the like when the author has likes in their digest', async () => {
    const [, fan] = fans;
    if (!fan) throw new Error('no fan');
    const settings = await send(t.app, 'GET', '/api/notifications/settings', undefined, {
      cookie: author.cookie,
    });
    expect(settings.statusCode, settings.body).toBe(200);
    const saved = await send(
      t.app,
      'PUT',
      '/api/notifications/settings',
      { ...settings.json<object>(), like: { inApp: true, email: 'digest' } },
      { cookie: author.cookie },
    );
    expect(saved.statusCode, saved.body).toBe(200);
    try {
      const postId = await newPost('Like me into the digest');
      const liked = await posts.likeTarget(postId, fan.user.uid);
      if (!liked) throw new Error('the post was not read');
      const outcome = await posts.like(liked, fan.user.uid);
      const [delivery] = outcome?.notified.deliveries ?? [];
      expect(delivery).toMatchObject({
        kind: 'like',
        recipientId: author.user.uid,
        actorId: fan.user.uid,
        postId,
        email: 'digest',
      });
      expect(delivery?.id).toMatch(/^\d+$/);
      expect(outcome?.notified.pending ?? []).toEqual([]);
      expect(await notificationRows(postId)).toHaveLength(1);
      expect(await pendingOf(postId)).toEqual([{ userId: fan.user.uid, pendingRecipientId: null }]);
      const queued = await database.db
        .selectFrom('notification_mail_queue')
        .select('kind')
        .where('postId', '=', postId)
        .execute();
      expect(queued).toEqual([{ kind: 'like' }]);
    } finally {
      await send(t.app, 'PUT', '/api/notifications/settings', settings.json<object>(), {
        cookie: author.cookie,
      });
    }
  });

  it("reads a post's images with its like only when it has some, and publishes them", async () => {
    const [fan] = fans;
    if (!fan) throw new Error('no fan');
    const response = await sendForm(
      t.app,
      'POST',
      '/api/posts',
      {
        body: 'With a picture',
        image0: { bytes: await images.png(64, 48), filename: 'small.png', type: 'image/png' },
        alt0: 'A small picture',
      },
      { cookie: author.cookie },
    );
    expect(response.statusCode, response.body).toBe(201);
    const pictured = postViewSchema.parse(response.json());
    const read = await posts.likeTarget(pictured.id, fan.user.uid);
    expect(read?.media.map((image) => [image.alt, image.width, image.height])).toEqual([
      ['A small picture', 64, 48],
    ]);
    if (!read) throw new Error('the post was not read');
    const outcome = await posts.like(read, fan.user.uid);
    expect(outcome?.media).toEqual(read.media);

    const plain = await posts.likeTarget(await newPost('Words only'), fan.user.uid);
    expect(plain?.media).toEqual([]);
  });

  it("writes a new post of text, its tags and its author's count at once, and reads the author after", async () => {
    const before = await database.db
      .selectFrom('users')
      .select('postCount')
      .where('id', '=', author.user.uid)
      .executeTakeFirstOrThrow();
    counter.count = 0;
    const created = await posts.create({
      authorId: author.user.uid,
      body: 'Out in the #Rain and the #sun',
      tags: ['rain', 'sun'],
      media: [],
      mentions: [],
    });
    // The statement and the author's record; on SQLite the post, its tags, the count and the record.
    expect(counter.count).toBe(target.name === 'postgres' ? 2 : 4);
    if (!created) throw new Error('the post was not created');
    const { record, author: writer } = created;
    expect(record).toMatchObject({
      authorId: author.user.uid,
      body: 'Out in the #Rain and the #sun',
      likeCount: 0,
      commentCount: 0,
      editedAt: null,
      removedAt: null,
      authorUid: author.user.uid,
      authorUsername: author.user.username,
    });
    expect(writer.postCount).toBe(before.postCount + 1);
    expect(created.notified).toEqual({ deliveries: [], withdrawn: [] });
    const tags = await database.db
      .selectFrom('post_tags')
      .select('tag')
      .where('postId', '=', record.id)
      .orderBy('tag')
      .execute();
    expect(tags.map((row) => row.tag)).toEqual(['rain', 'sun']);
    expect((await posts.findById(record.id))?.createdAt).toBe(record.createdAt);

    counter.count = 0;
    const untagged = await posts.create({
      authorId: author.user.uid,
      body: 'No tags here',
      tags: [],
      media: [],
      mentions: [],
    });
    expect(counter.count).toBe(target.name === 'postgres' ? 2 : 3);
    expect(untagged?.author.postCount).toBe(before.postCount + 2);
  });

  it('writes a new post that mentions someone in a transaction, with the notification', async () => {
    const [fan] = fans;
    if (!fan) throw new Error('no fan');
    const created = await posts.create({
      authorId: author.user.uid,
      body: `Hello @${fan.user.username}`,
      tags: [],
      media: [],
      mentions: [fan.user.username],
    });
    if (!created) throw new Error('the post was not created');
    expect(created.notified.deliveries).toMatchObject([
      { kind: 'mention', recipientId: fan.user.uid, actorId: author.user.uid },
    ]);
    expect(await notificationRows(created.record.id)).toEqual([
      { recipientId: fan.user.uid, actorId: author.user.uid, kind: 'mention', groupKey: null },
    ]);
  });

  it('writes no post for an author whose account was deleted after the request was let in', async () => {
    const gone = await signUp(t.app);
    await database.db.deleteFrom('users').where('id', '=', gone.user.uid).execute();
    // Text alone (one statement on PostgreSQL), and with a mention (a transaction on both).
    for (const mentions of [[], [author.user.username]]) {
      const created = await posts.create({
        authorId: gone.user.uid,
        body: `Too late #gone @${author.user.username}`,
        tags: ['gone'],
        media: [],
        mentions,
      });
      expect(created).toBeUndefined();
    }
    const written = await database.db
      .selectFrom('post_tags')
      .select('postId')
      .where('tag', '=', 'gone')
      .execute();
    expect(written).toEqual([]);
    expect(
      await database.db
        .selectFrom('notifications')
        .select('id')
        .where('actorId', '=', gone.user.uid)
        .execute(),
    ).toEqual([]);
  });

  it('notifies nobody of their own like, and keeps no row of it', async () => {
    const postId = await newPost('My own');
    const own = await posts.likeTarget(postId, author.user.uid);
    if (!own) throw new Error('the post was not read');
    const outcome = await posts.like(own, author.user.uid);
    expect(outcome).toMatchObject({ changed: true, notified: { deliveries: [] } });
    expect(outcome?.notified.pending ?? []).toEqual([]);
    expect(outcome?.record.likeCount).toBe(1);
    expect(await notificationRows(postId)).toEqual([]);
    expect(await pendingOf(postId)).toEqual([
      { userId: author.user.uid, pendingRecipientId: null },
    ]);
  });

  it('likes nothing when the post was deleted after it was read', async () => {
    const [, fan] = fans;
    if (!fan) throw new Error('no fan');
    const postId = await newPost('Here, then gone');
    const read = await posts.likeTarget(postId, fan.user.uid);
    if (!read) throw new Error('the post was not read');
    const deleted = await send(t.app, 'DELETE', `/api/posts/${postId}`, undefined, {
      cookie: author.cookie,
    });
    expect(deleted.statusCode, deleted.body).toBe(204);
    expect(await posts.like(read, fan.user.uid)).toBeUndefined();
    const likes = await database.db
      .selectFrom('post_likes')
      .select('id')
      .where('postId', '=', postId)
      .execute();
    expect(likes).toEqual([]);
    expect(await notificationRows(postId)).toEqual([]);
  });
});
