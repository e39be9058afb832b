import { randomBytes } from 'node:crypto';
import type { LightMyRequestResponse } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { limits, notificationDelivery } from '../../../shared/limits.js';
import {
  defaultNotificationSettings,
  notificationPageSchema,
  notificationSettingsSchema,
  unreadStateSchema,
  unsubscribeStateSchema,
  type NotificationGroup,
  type NotificationKind,
  type NotificationSettings,
} from '../../../shared/schemas/notification.js';
import { commentSchema, likeStateSchema, postViewSchema } from '../../../shared/schemas/post.js';
import type { MailMessage } from '../../mail/mailer.js';
import type { DatabaseHandle } from '../../db/database.js';
import {
  createTestApp,
  databaseTargets,
  expectError,
  openAppDatabase,
  send,
  signUp,
  testOrigin,
  uniqueIp,
  type TestApp,
} from '../../test/harness.js';

type Person = Awaited<ReturnType<typeof signUp>>;
type Method = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';

describe.each(databaseTargets)('notifications on $name', (target) => {
  let t: TestApp;
  let database: DatabaseHandle;
  let people: Person[];
  let next = 0;

  /** A person no other test has touched, so every count a test reads is its own. */
  const fresh = (): Person => {
    const person = people[next];
    next += 1;
    if (!person) throw new Error('ran out of people: sign more up in beforeAll');
    return person;
  };

  const call = (method: Method, url: string, person?: Person, body?: unknown) =>
    send(t.app, method, url, body, { cookie: person?.cookie });

  function ok(response: LightMyRequestResponse, status = 200): unknown {
    expect(response.statusCode, response.body).toBe(status);
    return status === 204 ? null : response.json();
  }

  async function post(author: Person, body: string): Promise<string> {
    return postViewSchema.parse(ok(await call('POST', '/api/posts', author, { body }), 201)).id;
  }

  async function comment(
    author: Person,
    postId: string,
    body: string,
    parentId?: string,
  ): Promise<string> {
    const response = await call('POST', `/api/posts/${postId}/comments`, author, {
      body,
      ...(parentId ? { parentId } : {}),
    });
    return commentSchema.parse(ok(response, 201)).id;
  }

  async function list(person: Person, query = ''): Promise<NotificationGroup[]> {
    const response = await call('GET', `/api/notifications${query}`, person);
    return notificationPageSchema.parse(ok(response)).items;
  }

  async function unread(person: Person) {
    return unreadStateSchema.parse(ok(await call('GET', '/api/notifications/unread', person)));
  }

  /** Each group as `kind:actor usernames:post:comment`, newest first: what a person would read. */
  async function summary(person: Person, query = ''): Promise<string[]> {
    return (await list(person, query)).map(
      (group) =>
        `${group.kind}:${group.actors.map((actor) => actor.username).join('+')}:${group.post?.id ?? '-'}:${group.comment?.id ?? '-'}`,
    );
  }

  async function saveSettings(person: Person, settings: NotificationSettings) {
    return ok(await call('PUT', '/api/notifications/settings', person, settings));
  }

  /** The mail sent to a person so far, once the mail under way has gone out. */
  async function mailTo(person: Person): Promise<MailMessage[]> {
    await t.app.services.notifications.idle();
    return t.mail.sent.filter((message) => message.to === person.input.email);
  }

  /** The token of a mail's unsubscribe link. */
  const tokenOf = (message: MailMessage | undefined): string => {
    const token = /\/unsubscribe\/([A-Za-z0-9_-]+)/.exec(message?.link ?? '')?.[1];
    if (!token) throw new Error(`no unsubscribe link in ${JSON.stringify(message)}`);
    return token;
  };

  beforeAll(async () => {
    t = await createTestApp(target);
    database = openAppDatabase(t);
    people = [];
    // A few sign-ups at a time: each hashes a password on the thread pool.
    while (people.length < 104) {
      people.push(...(await Promise.all(Array.from({ length: 8 }, () => signUp(t.app)))));
    }
  }, 180_000);
  afterAll(async () => {
    await database.close();
    await t.close();
  });

  describe('what makes a notification', () => {
    it('a follow notifies the person followed, and unfollowing takes it back', async () => {
      const [fan, star] = [fresh(), fresh()];
      ok(await call('PUT', `/api/users/${star.user.uid}/follow`, fan));
      expect(await summary(star)).toEqual([`follow:${fan.user.username}:-:-`]);
      expect(await summary(fan)).toEqual([]);
      ok(await call('DELETE', `/api/users/${star.user.uid}/follow`, fan));
      expect(await summary(star)).toEqual([]);
      expect(await unread(star)).toEqual({ unread: 0, newestId: null });
    });

    it('likes of a post and of a comment notify their authors, and unliking takes them back', async () => {
      const [author, commenter, fan] = [fresh(), fresh(), fresh()];
      const postId = await post(author, 'A post to like');
      const commentId = await comment(commenter, postId, 'A comment to like');
      ok(await call('PUT', `/api/posts/${postId}/like`, fan));
      ok(await call('PUT', `/api/comments/${commentId}/like`, fan));
      // Liking again changes nothing and notifies no one twice.
      ok(await call('PUT', `/api/posts/${postId}/like`, fan));
      expect(await summary(author)).toEqual([
        `like:${fan.user.username}:${postId}:-`,
        `comment:${commenter.user.username}:${postId}:${commentId}`,
      ]);
      expect(await summary(commenter)).toEqual([
        `comment_like:${fan.user.username}:${postId}:${commentId}`,
      ]);
      ok(await call('DELETE', `/api/posts/${postId}/like`, fan));
      ok(await call('DELETE', `/api/comments/${commentId}/like`, fan));
      expect(await summary(author)).toEqual([
        `comment:${commenter.user.username}:${postId}:${commentId}`,
      ]);
      expect(await summary(commenter)).toEqual([]);
    });

    it('never tells people of their own likes, comments, replies or mentions', async () => {
      const me = fresh();
      const postId = await post(me, `Talking to myself, @${me.user.username}`);
      const commentId = await comment(me, postId, `Still me, @${me.user.username}`);
      await comment(me, postId, 'And a reply to me', commentId);
      ok(await call('PUT', `/api/posts/${postId}/like`, me));
      ok(await call('PUT', `/api/comments/${commentId}/like`, me));
      expect(await summary(me)).toEqual([]);
      expect(await unread(me)).toEqual({ unread: 0, newestId: null });
    });

    it('a reply tells the replied-to author (reply) and the post author (comment), once each', async () => {
      const [author, first, replier] = [fresh(), fresh(), fresh()];
      const postId = await post(author, 'Start of a thread');
      const topId = await comment(first, postId, 'First!');
      // The reply mentions both: each still gets one notification, the reply or the comment.
      const replyId = await comment(
        replier,
        postId,
        `@${first.user.username} @${author.user.username} agreed`,
        topId,
      );
      expect(await summary(first)).toEqual([`reply:${replier.user.username}:${postId}:${replyId}`]);
      expect(await summary(author)).toEqual([
        `comment:${replier.user.username}:${postId}:${replyId}`,
        `comment:${first.user.username}:${postId}:${topId}`,
      ]);
      const [reply] = await list(first);
      expect(reply?.comment).toEqual({
        id: replyId,
        postId,
        excerpt: expect.stringContaining('agreed') as string,
      });
      expect(reply?.post?.excerpt).toBe('Start of a thread');
    });

    it('a reply to the post author’s own comment is a reply, not also a comment', async () => {
      const [author, replier] = [fresh(), fresh()];
      const postId = await post(author, 'My post');
      const mine = await comment(author, postId, 'My own comment');
      const replyId = await comment(replier, postId, 'Reply to you', mine);
      expect(await summary(author)).toEqual([
        `reply:${replier.user.username}:${postId}:${replyId}`,
      ]);
    });

    it('mentions in posts and comments notify, matched case-insensitively; unknown names do nothing', async () => {
      const [author, named, other] = [fresh(), fresh(), fresh()];
      const shouting = named.user.username.toUpperCase();
      const postId = await post(
        author,
        `Hello @${shouting} and @nobody_here_${randomBytes(3).toString('hex')}`,
      );
      const commentId = await comment(other, postId, `cc @${named.user.username}`);
      expect(await summary(named)).toEqual([
        `mention:${other.user.username}:${postId}:${commentId}`,
        `mention:${author.user.username}:${postId}:-`,
      ]);
      expect(await summary(named, '?tab=mentions')).toHaveLength(2);
    });

    it(`notifies at most ${notificationDelivery.mentionsPerText} of the people one text mentions`, async () => {
      const author = fresh();
      const named = Array.from({ length: notificationDelivery.mentionsPerText + 2 }, () => fresh());
      await post(author, named.map((person) => `@${person.user.username}`).join(' '));
      const notified = await Promise.all(named.map(async (person) => (await list(person)).length));
      expect(notified).toEqual(
        named.map((_, index) => (index < notificationDelivery.mentionsPerText ? 1 : 0)),
      );
    });

    it('an edit notifies only the people it newly mentions, and never twice', async () => {
      const [author, early, late, commenter] = [fresh(), fresh(), fresh(), fresh()];
      const postId = await post(author, `Hi @${early.user.username}`);
      const edit = (body: string) => call('PATCH', `/api/posts/${postId}`, author, { body });
      ok(await edit(`Hi @${early.user.username} and @${late.user.username}`));
      ok(await edit(`Hi @${late.user.username}`));
      ok(await edit(`Hi @${late.user.username} and @${early.user.username} again`));
      expect(await summary(early)).toEqual([`mention:${author.user.username}:${postId}:-`]);
      expect(await summary(late)).toEqual([`mention:${author.user.username}:${postId}:-`]);

      const commentId = await comment(commenter, postId, 'No names yet');
      ok(
        await call('PATCH', `/api/comments/${commentId}`, commenter, {
          body: `Now @${early.user.username}`,
        }),
      );
      expect(await summary(early)).toEqual([
        `mention:${commenter.user.username}:${postId}:${commentId}`,
        `mention:${author.user.username}:${postId}:-`,
      ]);
    });
  });

  describe('grouping and pages', () => {
    it('groups likes per post and follows together, newest people first, with how many there are', async () => {
      const author = fresh();
      const [a, b, c, d, e] = [fresh(), fresh(), fresh(), fresh(), fresh()];
      const postA = await post(author, 'Post A');
      const postB = await post(author, 'Post B');
      for (const fan of [a, b, c, d]) ok(await call('PUT', `/api/posts/${postA}/like`, fan));
      ok(await call('PUT', `/api/posts/${postB}/like`, e));
      for (const fan of [a, b]) ok(await call('PUT', `/api/users/${author.user.uid}/follow`, fan));

      const groups = await list(author);
      expect(groups.map((group) => [group.kind, group.post?.id ?? null, group.actorCount])).toEqual(
        [
          ['follow', null, 2],
          ['like', postB, 1],
          ['like', postA, 4],
        ],
      );
      const likesOfA = groups[2];
      expect(likesOfA?.actors.map((actor) => actor.username)).toEqual(
        [d, c, b].map((fan) => fan.user.username),
      );
      expect(likesOfA?.actors.length).toBe(limits.notifications.actorsShown);
      expect(groups[0]?.actors.map((actor) => actor.username)).toEqual([
        b.user.username,
        a.user.username,
      ]);
      // A group counts once in the bell, however many people are in it.
      expect((await unread(author)).unread).toBe(3);

      // A new like moves its group to the top; the group's id is its newest notification's.
      ok(await call('PUT', `/api/posts/${postA}/like`, e));
      const moved = await list(author);
      expect(moved.map((group) => [group.kind, group.post?.id ?? null, group.actorCount])).toEqual([
        ['like', postA, 5],
        ['follow', null, 2],
        ['like', postB, 1],
      ]);
      expect(moved[0]?.actors[0]?.username).toBe(e.user.username);
    });

    it('pages groups by their newest id without skipping or repeating', async () => {
      const author = fresh();
      const others = [fresh(), fresh(), fresh(), fresh()];
      const postIds: string[] = [];
      for (let index = 0; index < 4; index += 1) postIds.push(await post(author, `Post ${index}`));
      for (const [index, other] of others.entries()) {
        ok(await call('PUT', `/api/posts/${postIds[index % 4] ?? ''}/like`, other));
        await comment(other, postIds[(index + 1) % 4] ?? '', `Comment ${index}`);
      }
      const everything = await list(author, '?limit=50');
      const walked: NotificationGroup[] = [];
      let cursor: string | null = null;
      do {
        const query: string = `?limit=3${cursor ? `&cursor=${cursor}` : ''}`;
        const response = await call('GET', `/api/notifications${query}`, author);
        const page = notificationPageSchema.parse(ok(response));
        expect(page.items.length).toBeLessThanOrEqual(3);
        walked.push(...page.items);
        cursor = page.nextCursor;
      } while (cursor !== null);
      expect(walked).toEqual(everything);
      expect(new Set(walked.map((group) => group.id)).size).toBe(walked.length);
      // Four posts liked (4 groups) and four comments, each its own.
      expect(walked.length).toBe(8);
      const ids = walked.map((group) => BigInt(group.id));
      expect([...ids].sort((x, y) => (y > x ? 1 : -1))).toEqual(ids);
    });

    it('the mentions tab lists mentions alone', async () => {
      const [me, other] = [fresh(), fresh()];
      const mine = await post(me, 'Mine');
      ok(await call('PUT', `/api/posts/${mine}/like`, other));
      const theirs = await post(other, `Hey @${me.user.username}`);
      expect(await summary(me, '?tab=mentions')).toEqual([
        `mention:${other.user.username}:${theirs}:-`,
      ]);
      expect(await summary(me)).toHaveLength(2);
    });

    it('refuses bad queries with a 400', async () => {
      const me = fresh();
      for (const query of [
        '?tab=likes',
        '?limit=0',
        `?limit=${limits.page.max + 1}`,
        '?cursor=abc',
      ]) {
        expectError(await call('GET', `/api/notifications${query}`, me), 400, 'validation_failed');
      }
      expectError(await call('GET', '/api/notifications'), 401, 'unauthenticated');
      expectError(await call('GET', '/api/notifications/unread'), 401, 'unauthenticated');
    });

    it('keeps a deactivated person’s notifications and shows them inactive', async () => {
      const [author, fan] = [fresh(), fresh()];
      const postId = await post(author, 'Liked by someone who leaves');
      ok(await call('PUT', `/api/posts/${postId}/like`, fan));
      await t.app.services.users.setActive(fan.user.username, false);
      const [group] = await list(author);
      expect(group?.actors).toEqual([
        expect.objectContaining({ uid: fan.user.uid, active: false }),
      ]);
    });

    it('a deleted account’s notifications go with it', async () => {
      const [author, leaver] = [fresh(), fresh()];
      const postId = await post(author, 'Liked by someone who deletes their account');
      ok(await call('PUT', `/api/posts/${postId}/like`, leaver));
      expect(await summary(author)).toHaveLength(1);
      const response = await call('POST', '/api/account/delete', leaver, {
        password: leaver.input.password,
      });
      expect(response.statusCode, response.body).toBeLessThan(300);
      expect(await summary(author)).toEqual([]);
    });
  });

  describe('the bell and the read marker', () => {
    it('counts unread groups, marks read up to an id or everything, and never moves back', async () => {
      const [me, a, b] = [fresh(), fresh(), fresh()];
      const postId = await post(me, 'Counting');
      await comment(a, postId, 'one');
      await comment(b, postId, 'two');
      const state = await unread(me);
      expect(state.unread).toBe(2);
      const groups = await list(me);
      expect(groups.map((group) => group.unread)).toEqual([true, true]);
      expect(state.newestId).toBe(groups[0]?.id);

      const older = groups[1]?.id ?? '';
      expect(
        unreadStateSchema.parse(
          ok(await call('POST', '/api/notifications/read', me, { upTo: older })),
        ),
      ).toEqual({
        unread: 1,
        newestId: state.newestId,
      });
      expect((await list(me)).map((group) => group.unread)).toEqual([true, false]);
      ok(await call('POST', '/api/notifications/read', me, {}));
      expect(await unread(me)).toEqual({ unread: 0, newestId: state.newestId });
      // An older mark after a newer one changes nothing.
      ok(await call('POST', '/api/notifications/read', me, { upTo: older }));
      expect((await unread(me)).unread).toBe(0);
      // A mark past the newest id does not swallow notifications yet to come.
      ok(await call('POST', '/api/notifications/read', me, { upTo: '999999999999' }));
      await comment(a, postId, 'three');
      expect((await unread(me)).unread).toBe(1);

      expectError(
        await call('POST', '/api/notifications/read', me, { upTo: 'x' }),
        400,
        'validation_failed',
      );
      expectError(
        await call('POST', '/api/notifications/read', me, { all: true }),
        400,
        'validation_failed',
      );
    });

    it(`counts at most ${limits.notifications.unreadCountMax}`, async () => {
      const me = fresh();
      const other = fresh();
      const postId = await post(other, 'Comments mentioning one person');
      const rows = Array.from({ length: limits.notifications.unreadCountMax + 5 }, () => ({
        recipientId: me.user.uid,
        actorId: other.user.uid,
        kind: 'mention',
        postId,
        commentId: null,
        groupKey: null,
        createdAt: new Date().toISOString(),
      }));
      await database.db.insertInto('notifications').values(rows).execute();
      expect((await unread(me)).unread).toBe(limits.notifications.unreadCountMax);
    });
  });

  describe('deleting the cause', () => {
    it('a deleted post takes its likes, comments and mentions with it', async () => {
      const [author, fan, named] = [fresh(), fresh(), fresh()];
      const postId = await post(author, `Soon gone, @${named.user.username}`);
      ok(await call('PUT', `/api/posts/${postId}/like`, fan));
      await comment(fan, postId, 'Nice');
      expect((await unread(author)).unread).toBe(2);
      expect((await unread(named)).unread).toBe(1);
      ok(await call('DELETE', `/api/posts/${postId}`, author), 204);
      expect(await summary(author)).toEqual([]);
      expect(await summary(named)).toEqual([]);
      expect(await unread(author)).toEqual({ unread: 0, newestId: null });
    });

    it('a deleted comment takes its replies’ notifications and its likes with it', async () => {
      const [author, first, replier, fan] = [fresh(), fresh(), fresh(), fresh()];
      const postId = await post(author, 'A thread');
      const topId = await comment(first, postId, 'Top');
      await comment(replier, postId, 'Reply', topId);
      ok(await call('PUT', `/api/comments/${topId}/like`, fan));
      expect(await summary(first)).toHaveLength(2);
      ok(await call('DELETE', `/api/comments/${topId}`, first), 204);
      expect(await summary(first)).toEqual([]);
      expect(await summary(author)).toEqual([]);
    });
  });

  describe('settings', () => {
    it('starts from the defaults and keeps what is saved', async () => {
      const me = fresh();
      expect(ok(await call('GET', '/api/notifications/settings', me))).toEqual(
        defaultNotificationSettings,
      );
      const changed: NotificationSettings = {
        ...defaultNotificationSettings,
        like: { inApp: false, email: 'digest' },
        mention: { inApp: true, email: 'never' },
      };
      expect(await saveSettings(me, changed)).toEqual(changed);
      expect(
        notificationSettingsSchema.parse(ok(await call('GET', '/api/notifications/settings', me))),
      ).toEqual(changed);
    });

    it('accepts only the known kinds, and immediate mail only for mentions, replies and comments', async () => {
      const me = fresh();
      const put = (body: unknown) => call('PUT', '/api/notifications/settings', me, body);
      expectError(
        await put({ ...defaultNotificationSettings, poke: { inApp: true, email: 'never' } }),
        400,
        'validation_failed',
      );
      const immediateLike = expectError(
        await put({ ...defaultNotificationSettings, like: { inApp: true, email: 'immediate' } }),
        400,
        'validation_failed',
      );
      expect(immediateLike.fields).toEqual({
        like: 'Only mentions, replies and comments can be mailed as they happen.',
      });
      const mailedReport = expectError(
        await put({
          ...defaultNotificationSettings,
          report_resolved: { inApp: true, email: 'digest' },
        }),
        400,
        'validation_failed',
      );
      expect(mailedReport.fields).toEqual({
        report_resolved: 'This kind is shown in the app only.',
      });
      const unknownMode = expectError(
        await put({ ...defaultNotificationSettings, mention: { inApp: true, email: 'weekly' } }),
        400,
        'validation_failed',
      );
      expect(unknownMode.fields).toEqual({ mention: 'Choose never, immediate or digest.' });
      const { follow: _left, ...missing } = defaultNotificationSettings;
      expectError(await put(missing), 400, 'validation_failed');
      expectError(
        await put({ ...defaultNotificationSettings, reply: { inApp: 'yes', email: 'never' } }),
        400,
        'validation_failed',
      );
      expectError(
        await call('PUT', '/api/notifications/settings', undefined, defaultNotificationSettings),
        401,
        'unauthenticated',
      );
      expect(ok(await call('GET', '/api/notifications/settings', me))).toEqual(
        defaultNotificationSettings,
      );
    });

    it('a kind off in the app makes no notification, but is still mailed', async () => {
      const [me, other] = [fresh(), fresh()];
      await saveSettings(me, {
        ...defaultNotificationSettings,
        mention: { inApp: false, email: 'immediate' },
        follow: { inApp: false, email: 'never' },
        like: { inApp: false, email: 'never' },
      });
      ok(await call('PUT', `/api/users/${me.user.uid}/follow`, other));
      await post(other, `Hi @${me.user.username}`);
      const mine = await post(me, 'Liked, unheard of');
      const liked = likeStateSchema.parse(ok(await call('PUT', `/api/posts/${mine}/like`, other)));
      expect(liked.likeCount).toBe(1);
      expect(await summary(me)).toEqual([]);
      expect(await mailTo(me)).toHaveLength(1);
      // Back on: the next like is listed, and the count went on from the unheard one.
      await saveSettings(me, defaultNotificationSettings);
      const fan = fresh();
      const again = likeStateSchema.parse(ok(await call('PUT', `/api/posts/${mine}/like`, fan)));
      expect(again.likeCount).toBe(2);
      expect(await summary(me)).toEqual([`like:${fan.user.username}:${mine}:-`]);
    });
  });

  describe('mail', () => {
    it('mails a mention at once, with who did what, the links and one-click unsubscribe headers', async () => {
      const [me, other] = [fresh(), fresh()];
      const postId = await post(other, `Look at this, @${me.user.username}`);
      const [mail] = await mailTo(me);
      expect(mail?.subject).toMatch(/mentioned you in a post/);
      const token = tokenOf(mail);
      for (const part of [mail?.text, mail?.html]) {
        expect(part).toContain(`@${other.user.username}`);
        expect(part).toContain(`${testOrigin}/post/${postId}`);
        expect(part).toContain(`${testOrigin}/settings/notifications`);
        expect(part).toContain(`${testOrigin}/unsubscribe/${token}`);
        expect(part).toContain('Look at this');
      }
      expect(mail?.headers).toEqual({
        'List-Unsubscribe': `<${testOrigin}/api/unsubscribe/${token}>`,
        'List-Unsubscribe-Post': 'List-Unsubscribe=One-Click',
      });
      // Likes are not mailed by default.
      ok(await call('PUT', `/api/posts/${postId}/like`, me));
      expect(await mailTo(other)).toEqual([]);
    });

    it('mails replies and comments, and nothing for a kind set to never', async () => {
      const [author, first, replier] = [fresh(), fresh(), fresh()];
      await saveSettings(author, {
        ...defaultNotificationSettings,
        comment: { inApp: true, email: 'never' },
      });
      const postId = await post(author, 'Post');
      const topId = await comment(first, postId, 'Top');
      await comment(replier, postId, 'Reply', topId);
      expect((await mailTo(first)).map((mail) => mail.subject)).toEqual([
        expect.stringMatching(/replied to your comment/),
      ]);
      expect(await mailTo(author)).toEqual([]);
    });

    it(`sends at most ${notificationDelivery.immediatePerHour} an hour; the rest wait for the digest`, async () => {
      const [me, other] = [fresh(), fresh()];
      const postId = await post(me, 'A popular post');
      const total = notificationDelivery.immediatePerHour + 3;
      for (let index = 0; index < total; index += 1)
        await comment(other, postId, `Comment ${index}`);
      expect(await mailTo(me)).toHaveLength(notificationDelivery.immediatePerHour);
      await t.app.services.notifications.idle();
      await t.app.services.notifications.sendDueDigests();
      const digest = (await mailTo(me)).at(-1);
      expect(digest?.subject).toMatch(/^3 new notifications/);
      expect(digest?.text.match(/commented on your post/g)).toHaveLength(3);
    });

    it('sends a daily digest once, claimed so two sweeps at once send one', async () => {
      const [me, a, b] = [fresh(), fresh(), fresh()];
      await saveSettings(me, {
        ...defaultNotificationSettings,
        like: { inApp: true, email: 'digest' },
        follow: { inApp: false, email: 'digest' },
      });
      const postId = await post(me, 'Digest me');
      ok(await call('PUT', `/api/posts/${postId}/like`, a));
      ok(await call('PUT', `/api/users/${me.user.uid}/follow`, b));
      // Taken back before the digest: it is not in it.
      ok(await call('PUT', `/api/posts/${postId}/like`, b));
      ok(await call('DELETE', `/api/posts/${postId}/like`, b));
      expect(await mailTo(me)).toEqual([]);

      const now = new Date();
      const notifications = t.app.services.notifications;
      await notifications.idle();
      await Promise.all([notifications.sendDueDigests(now), notifications.sendDueDigests(now)]);
      const [digest, ...more] = await mailTo(me);
      expect(more).toEqual([]);
      expect(digest?.subject).toMatch(/^2 new notifications/);
      expect(digest?.text).toContain(`@${a.user.username}) liked your post.`);
      expect(digest?.text).toContain(`@${b.user.username}) followed you.`);
      expect(digest?.text).toContain('Digest me');
      expect(digest?.headers?.['List-Unsubscribe']).toContain('/api/unsubscribe/');

      // Nothing more before a day has passed, even with something new waiting.
      const c = fresh();
      ok(await call('PUT', `/api/posts/${postId}/like`, c));
      await notifications.idle();
      await notifications.sendDueDigests(new Date(now.getTime() + 60 * 60_000));
      expect(await mailTo(me)).toHaveLength(1);
      await notifications.sendDueDigests(
        new Date(now.getTime() + notificationDelivery.digestEveryMs + 1),
      );
      expect(await mailTo(me)).toHaveLength(2);
      expect((await mailTo(me))[1]?.subject).toMatch(/^1 new notification on/);

      // The digest's link stops the digest: every kind mailed in it turns to never.
      const used = ok(
        await send(t.app, 'POST', `/api/unsubscribe/${tokenOf((await mailTo(me))[1])}`, undefined, {
          origin: null,
        }),
      );
      expect(unsubscribeStateSchema.parse(used).kind).toBeNull();
      const settings = notificationSettingsSchema.parse(
        ok(await call('GET', '/api/notifications/settings', me)),
      );
      expect(settings.like).toEqual({ inApp: true, email: 'never' });
      expect(settings.follow).toEqual({ inApp: false, email: 'never' });
      expect(settings.mention).toEqual(defaultNotificationSettings.mention);
    });
  });

  describe('unsubscribe links', () => {
    async function mentionMail(): Promise<{ me: Person; token: string }> {
      const [me, other] = [fresh(), fresh()];
      await post(other, `Hi @${me.user.username}`);
      return { me, token: tokenOf((await mailTo(me))[0]) };
    }

    const anonymous = (method: 'GET' | 'POST', url: string, body?: unknown) =>
      send(t.app, method, url, body, { origin: null });

    it('reading a link changes nothing; using it stops that kind of mail, once', async () => {
      const { me, token } = await mentionMail();
      const url = `/api/unsubscribe/${token}`;
      const masked = `${me.input.email.slice(0, 1)}•••@example.test`;
      for (let index = 0; index < 2; index += 1) {
        expect(ok(await anonymous('GET', url))).toEqual({
          kind: 'mention',
          email: masked,
          used: false,
        });
      }
      expect(ok(await anonymous('POST', url, {}))).toEqual({
        kind: 'mention',
        email: masked,
        used: true,
      });
      expect(ok(await anonymous('GET', url))).toEqual({
        kind: 'mention',
        email: masked,
        used: true,
      });
      expectError(await anonymous('POST', url, {}), 409, 'conflict');
      const settings = notificationSettingsSchema.parse(
        ok(await call('GET', '/api/notifications/settings', me)),
      );
      expect(settings.mention).toEqual({ inApp: true, email: 'never' });
      expect(settings.reply).toEqual(defaultNotificationSettings.reply);

      // No more mention mail; the mention itself still shows in the app.
      const other = fresh();
      await post(other, `Again @${me.user.username}`);
      expect(await mailTo(me)).toHaveLength(1);
      expect(await summary(me, '?tab=mentions')).toHaveLength(2);
    });

    it('takes the one-click form body mail clients send (RFC 8058), without an Origin', async () => {
      const { me, token } = await mentionMail();
      const response = await t.app.inject({
        method: 'POST',
        url: `/api/unsubscribe/${token}`,
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        payload: 'List-Unsubscribe=One-Click',
        remoteAddress: uniqueIp(),
      });
      expect(ok(response)).toMatchObject({ kind: 'mention', used: true });
      expect(
        notificationSettingsSchema.parse(ok(await call('GET', '/api/notifications/settings', me)))
          .mention.email,
      ).toBe('never');
    });

    it('takes an empty body too', async () => {
      const { token } = await mentionMail();
      const response = await t.app.inject({
        method: 'POST',
        url: `/api/unsubscribe/${token}`,
        remoteAddress: uniqueIp(),
      });
      expect(ok(response)).toMatchObject({ used: true });
    });

    it('answers 404 to an unknown or forged token and 400 to a malformed one', async () => {
      const { token } = await mentionMail();
      const forged = randomBytes(32).toString('base64url');
      // The stored hash, used as a token, is not a token.
      const [stored] = await database.db
        .selectFrom('unsubscribe_tokens')
        .select('tokenHash')
        .limit(1)
        .execute();
      for (const bad of [
        forged,
        stored?.tokenHash ?? forged,
        `${token.slice(0, -1)}${token.endsWith('A') ? 'B' : 'A'}`,
      ]) {
        expectError(await anonymous('GET', `/api/unsubscribe/${bad}`), 404, 'not_found');
        expectError(await anonymous('POST', `/api/unsubscribe/${bad}`, {}), 404, 'not_found');
      }
      for (const bad of ['short', 'a'.repeat(129), `${'a'.repeat(40)}!`]) {
        expectError(
          await anonymous('GET', `/api/unsubscribe/${encodeURIComponent(bad)}`),
          400,
          'validation_failed',
        );
      }
      // The real token still works.
      expect(ok(await anonymous('POST', `/api/unsubscribe/${token}`))).toMatchObject({
        used: true,
      });
    });

    it('keeps only hashes of tokens', async () => {
      const { token } = await mentionMail();
      const rows = await database.db.selectFrom('unsubscribe_tokens').select('tokenHash').execute();
      expect(rows.some((row) => row.tokenHash === token)).toBe(false);
    });
  });

  describe('upkeep', () => {
    it('deletes notifications past the days they are kept', async () => {
      const [me, other] = [fresh(), fresh()];
      const postId = await post(me, 'Old news');
      ok(await call('PUT', `/api/posts/${postId}/like`, other));
      expect(await summary(me)).toHaveLength(1);
      await t.app.services.notifications.sweep(
        new Date(Date.now() + (limits.notifications.keepDays + 1) * 24 * 60 * 60_000),
      );
      expect(await summary(me)).toEqual([]);
    });
  });

  it("covers every kind a person may switch (the moderators' own are always on)", () => {
    const kinds: NotificationKind[] = [
      'follow',
      'like',
      'comment_like',
      'comment',
      'reply',
      'mention',
      'report_resolved',
      'new_report',
      'new_appeal',
      'signup_pending',
    ];
    expect(Object.keys(defaultNotificationSettings).sort()).toEqual([...kinds].sort());
  });
});
