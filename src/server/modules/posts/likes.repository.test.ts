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

/** Counts the statements a database runs through Kysely (a transaction's BEGIN and COMMIT are not). */
function statementCounter(): Plugin & { count: number } {
  return {
    count: 0,
    transformQuery(args) {
      this.count += 1;
      return args.node;
    },
    transformResult: (args) => Promise.resolve(args.result),
  };
}

/**
 * The like's write (ADR 0048): one statement on PostgreSQL, a transaction of three on SQLite, the same
 * outcome on both, including a post deleted between the like's read and its write.
 */
describe.each(databaseTargets)('a like written on $name', (target) => {
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

  it('writes the like, the count and the notification, once, and a repeat writes nothing', async () => {
    const [fan] = fans;
    if (!fan) throw new Error('no fan');
    const postId = await newPost('Like me once');
    const liked = await posts.likeTarget(postId, fan.user.uid);
    if (!liked) throw new Error('the post was not read');

    counter.count = 0;
    const first = await posts.like(liked, fan.user.uid);
    expect(counter.count).toBe(target.name === 'postgres' ? 1 : 3);
    expect(first?.changed).toBe(true);
    expect(first?.record.likeCount).toBe(1);
    expect(first?.record.body).toBe('Like me once');
    const [delivery] = first?.notified.deliveries ?? [];
    expect(delivery).toMatchObject({
      kind: 'like',
      recipientId: author.user.uid,
      actorId: fan.user.uid,
      postId,
      email: 'never',
    });
    expect(delivery?.id).toMatch(/^\d+$/);
    expect(await notificationRows(postId)).toEqual([
      {
        recipientId: author.user.uid,
        actorId: fan.user.uid,
        kind: 'like',
        groupKey: `like:${postId}`,
      },
    ]);

    const repeat = await posts.like(liked, fan.user.uid);
    expect(repeat).toMatchObject({ changed: false, notified: { deliveries: [], withdrawn: [] } });
    const stored = await posts.findById(postId);
    expect(stored?.likeCount).toBe(1);
    expect(await notificationRows(postId)).toHaveLength(1);
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

  it('notifies nobody of their own like, and keeps no row of it', async () => {
    const postId = await newPost('My own');
    const own = await posts.likeTarget(postId, author.user.uid);
    if (!own) throw new Error('the post was not read');
    const outcome = await posts.like(own, author.user.uid);
    expect(outcome).toMatchObject({ changed: true, notified: { deliveries: [] } });
    expect(outcome?.record.likeCount).toBe(1);
    expect(await notificationRows(postId)).toEqual([]);
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
