import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { moderationTopic } from '../../../shared/realtime-protocol.js';
import { notificationPageSchema } from '../../../shared/schemas/notification.js';
import { postPageSchema, postViewSchema, threadPageSchema } from '../../../shared/schemas/post.js';
import {
  appealPageSchema,
  appealSchema,
  moderationStateSchema,
  myAppealSchema,
  myReportPageSchema,
  myReportSchema,
  mySuspensionSchema,
  reportGroupPageSchema,
  resolveResultSchema,
  userSuspensionStateSchema,
} from '../../../shared/schemas/report.js';
import { userDocumentSchema } from '../../../shared/schemas/user.js';
import {
  connectRealtime,
  createTestApp,
  databaseTargets,
  expectError,
  listen,
  send,
  signUp,
  type TestApp,
} from '../../test/harness.js';

type Person = Awaited<ReturnType<typeof signUp>>;

describe.each(databaseTargets)('moderation on $name', (target) => {
  let t: TestApp;
  let baseUrl: string;
  let moderator: Person;
  let moderator2: Person;
  let admin: Person;
  let admin2: Person;
  let inactive: Person;

  beforeAll(async () => {
    t = await createTestApp(target);
    baseUrl = await listen(t);
    [moderator, moderator2, admin, admin2, inactive] = (await Promise.all(
      Array.from({ length: 5 }, () => signUp(t.app)),
    )) as [Person, Person, Person, Person, Person];
    await t.app.services.users.setRole(moderator.user.username, 'moderator');
    await t.app.services.users.setRole(moderator2.user.username, 'moderator');
    await t.app.services.users.setRole(admin.user.username, 'admin');
    await t.app.services.users.setRole(admin2.user.username, 'admin');
    await t.app.services.users.setActive(inactive.user.username, false);
  });

  afterAll(async () => {
    await t.close();
  });

  const as = (person: Person | null) => ({ cookie: person?.cookie });
  const post = async (person: Person, body = 'A post worth reporting') => {
    const response = await send(t.app, 'POST', '/api/posts', { body }, as(person));
    expect(response.statusCode, response.body).toBe(201);
    return postViewSchema.parse(response.json()).id;
  };
  const report = (person: Person | null, body: Record<string, unknown>) =>
    send(t.app, 'POST', '/api/reports', body, as(person));
  const suspend = (person: Person | null, uid: string, body: Record<string, unknown>) =>
    send(t.app, 'PUT', `/api/admin/users/${uid}/suspension`, body, as(person));
  const notificationsOf = async (person: Person) => {
    const response = await send(t.app, 'GET', '/api/notifications', undefined, as(person));
    expect(response.statusCode, response.body).toBe(200);
    return notificationPageSchema.parse(response.json()).items;
  };

  it('runs the whole flow: report, queue, remove, suspend, appeal, lift by accepting', async () => {
    const [author, reporter] = await Promise.all([signUp(t.app), signUp(t.app)]);
    const postId = await post(author);

    const created = await report(reporter, {
      targetKind: 'post',
      targetId: postId,
      reason: 'spam',
      comment: 'Selling things',
    });
    expect(created.statusCode, created.body).toBe(201);
    expect(myReportSchema.parse(created.json())).toMatchObject({
      status: 'open',
      outcome: null,
      excerpt: 'A post worth reporting',
    });

    // Staff see it in the queue, with the reporter; the author's history is empty.
    const queue = await send(t.app, 'GET', '/api/admin/reports', undefined, as(moderator));
    expect(queue.statusCode, queue.body).toBe(200);
    const group = reportGroupPageSchema
      .parse(queue.json())
      .items.find((item) => item.targetId === postId);
    expect(group).toMatchObject({
      targetKind: 'post',
      status: 'open',
      contentState: 'exists',
      reportCount: 1,
      snapshot: { text: 'A post worth reporting', author: { uid: author.user.uid } },
      history: { count: 0 },
    });
    expect(group?.reports[0]?.reporter?.uid).toBe(reporter.user.uid);

    // Staff are told; the author is never told who reported them.
    expect((await notificationsOf(moderator)).some((n) => n.kind === 'new_report')).toBe(true);
    expect((await notificationsOf(author)).some((n) => n.kind === 'new_report')).toBe(false);

    // Remove it through the queue: the report closes and the reporter learns the outcome.
    const resolved = await send(
      t.app,
      'POST',
      '/api/admin/reports/resolve',
      { targetKind: 'post', targetId: postId, action: 'remove', reason: 'Spam is not allowed' },
      as(moderator),
    );
    expect(resolved.statusCode, resolved.body).toBe(200);
    expect(resolveResultSchema.parse(resolved.json())).toMatchObject({
      outcome: 'removed',
      closed: 1,
    });
    const reporterNotes = await notificationsOf(reporter);
    const outcome = reporterNotes.find((n) => n.kind === 'report_resolved');
    expect(outcome?.moderation?.outcome).toBe('removed');
    expect(outcome?.actors).toEqual([]);
    const mine = myReportPageSchema.parse(
      (await send(t.app, 'GET', '/api/me/reports', undefined, as(reporter))).json(),
    );
    expect(mine.items[0]).toMatchObject({ status: 'resolved', outcome: 'removed' });

    // The author is told why, by "the moderators".
    const removedNote = (await notificationsOf(author)).find((n) => n.kind === 'content_removed');
    expect(removedNote?.moderation?.reason).toBe('Spam is not allowed');
    expect(removedNote?.actorCount).toBe(0);

    // Gone for others (post page, feed, profile), still there for its author.
    expectError(
      await send(t.app, 'GET', `/api/posts/${postId}`, undefined, as(reporter)),
      404,
      'not_found',
    );
    expectError(await send(t.app, 'GET', `/api/posts/${postId}`), 404, 'not_found');
    expect(
      (await send(t.app, 'GET', `/api/posts/${postId}`, undefined, as(author))).statusCode,
    ).toBe(200);
    const feed = postPageSchema.parse(
      (await send(t.app, 'GET', '/api/feed?tab=everyone', undefined, as(reporter))).json(),
    );
    expect(feed.items.some((item) => item.id === postId)).toBe(false);
    const profile = postPageSchema.parse(
      (await send(t.app, 'GET', `/api/users/${author.user.uid}/posts`)).json(),
    );
    expect(profile.items.some((item) => item.id === postId)).toBe(false);
    const own = postPageSchema.parse(
      (
        await send(t.app, 'GET', `/api/users/${author.user.uid}/posts`, undefined, as(author))
      ).json(),
    );
    expect(own.items.some((item) => item.id === postId)).toBe(true);
    // Reporting removed content again is a 404.
    expectError(
      await report(reporter, { targetKind: 'post', targetId: postId, reason: 'spam' }),
      404,
      'not_found',
    );

    // Suspend for 3 days: the author's document says so at once, and writes are refused.
    const suspended = await suspend(moderator, author.user.uid, {
      reason: 'Repeated spam',
      duration: '3d',
    });
    expect(suspended.statusCode, suspended.body).toBe(200);
    const state = userSuspensionStateSchema.parse(suspended.json());
    expect(state.suspended).toBe(true);
    expect(Date.parse(state.until ?? '') - Date.parse(state.since ?? '')).toBe(3 * 86_400_000);
    const document = userDocumentSchema.parse(
      (await send(t.app, 'GET', `/api/users/${author.user.uid}`)).json(),
    );
    expect(document.suspended).toBe(true);
    expectError(
      await send(t.app, 'POST', '/api/posts', { body: 'still here' }, as(author)),
      403,
      'account_suspended',
    );
    expect(
      t.mail.sent.some((m) => m.to === author.input.email && /suspended/i.test(m.subject)),
    ).toBe(true);

    // The author reads their suspension, appeals once; a second appeal is a 409.
    const mySuspension = mySuspensionSchema.parse(
      (await send(t.app, 'GET', '/api/me/suspension', undefined, as(author))).json(),
    );
    expect(mySuspension.suspension).toMatchObject({ reason: 'Repeated spam', mayAppeal: true });
    const appealed = await send(
      t.app,
      'POST',
      '/api/me/appeal',
      { text: 'It was a mistake' },
      as(author),
    );
    expect(appealed.statusCode, appealed.body).toBe(201);
    const appeal = myAppealSchema.parse(appealed.json());
    expectError(
      await send(t.app, 'POST', '/api/me/appeal', { text: 'Again' }, as(author)),
      409,
      'conflict',
    );
    const appeals = appealPageSchema.parse(
      (await send(t.app, 'GET', '/api/admin/appeals', undefined, as(admin))).json(),
    );
    expect(appeals.items.find((item) => item.id === appeal.id)?.suspension.current).toBe(true);

    // An admin accepts: the suspension lifts, the author is told and may write again.
    const decided = await send(
      t.app,
      'POST',
      `/api/admin/appeals/${appeal.id}/decision`,
      { accept: true, reason: 'Fair enough' },
      as(admin),
    );
    expect(decided.statusCode, decided.body).toBe(200);
    expect(appealSchema.parse(decided.json())).toMatchObject({
      status: 'accepted',
      suspension: { current: false },
    });
    expect(
      (await notificationsOf(author)).find((n) => n.kind === 'appeal_decided')?.moderation
        ?.accepted,
    ).toBe(true);
    expect((await send(t.app, 'POST', '/api/posts', { body: 'back' }, as(author))).statusCode).toBe(
      201,
    );
    expectError(
      await send(
        t.app,
        'POST',
        `/api/admin/appeals/${appeal.id}/decision`,
        { accept: false, reason: 'x' },
        as(admin),
      ),
      409,
      'conflict',
    );

    // Restoring brings the post back for everyone.
    const restored = await send(
      t.app,
      'POST',
      `/api/admin/posts/${postId}/restoration`,
      { reason: 'Removed by mistake' },
      as(admin),
    );
    expect(restored.statusCode, restored.body).toBe(200);
    expect((await send(t.app, 'GET', `/api/posts/${postId}`)).statusCode).toBe(200);

    // Every step is in the audit log, which the queue shows as the author's history.
    const history = await t.app.services.moderation.queue({ status: 'resolved', limit: 50 });
    const resolvedGroup = history.items.find((item) => item.targetId === postId);
    expect(resolvedGroup?.history.count).toBeGreaterThanOrEqual(4);
  });

  it('refuses bad reports: twice, oneself, own content, unknown and deleted targets, bad rules', async () => {
    const [author, reporter] = await Promise.all([signUp(t.app), signUp(t.app)]);
    const postId = await post(author);
    expect(
      (await report(reporter, { targetKind: 'post', targetId: postId, reason: 'other' }))
        .statusCode,
    ).toBe(201);
    expectError(
      await report(reporter, { targetKind: 'post', targetId: postId, reason: 'other' }),
      409,
      'conflict',
    );
    expectError(
      await report(reporter, {
        targetKind: 'profile',
        targetId: reporter.user.uid,
        reason: 'spam',
      }),
      400,
      'validation_failed',
    );
    expectError(
      await report(author, { targetKind: 'post', targetId: postId, reason: 'spam' }),
      400,
      'validation_failed',
    );
    expectError(
      await report(reporter, { targetKind: 'post', targetId: '999999', reason: 'spam' }),
      404,
      'not_found',
    );
    expectError(
      await report(reporter, { targetKind: 'profile', targetId: 'nobody-here', reason: 'spam' }),
      404,
      'not_found',
    );
    // A rule must be named with the reason "rule", and exist.
    expectError(
      await report(reporter, { targetKind: 'profile', targetId: author.user.uid, reason: 'rule' }),
      400,
      'validation_failed',
      'ruleId',
    );
    expectError(
      await report(reporter, {
        targetKind: 'profile',
        targetId: author.user.uid,
        reason: 'rule',
        ruleId: '4242',
      }),
      400,
      'validation_failed',
    );
    expectError(
      await report(reporter, {
        targetKind: 'profile',
        targetId: author.user.uid,
        reason: 'other',
        comment: 'x'.repeat(1001),
      }),
      400,
      'validation_failed',
      'comment',
    );
    // A deleted post: the report survives with its snapshot, a new one is a 404.
    const other = await signUp(t.app);
    expect(
      (await send(t.app, 'DELETE', `/api/posts/${postId}`, undefined, as(author))).statusCode,
    ).toBe(204);
    expectError(
      await report(other, { targetKind: 'post', targetId: postId, reason: 'spam' }),
      404,
      'not_found',
    );
    const queue = reportGroupPageSchema.parse(
      (await send(t.app, 'GET', '/api/admin/reports?limit=50', undefined, as(moderator))).json(),
    );
    const group = queue.items.find((item) => item.targetId === postId);
    expect(group).toMatchObject({
      contentState: 'deleted',
      snapshot: { text: 'A post worth reporting' },
    });
    // Dismissing closes it; dismissing again is a 409.
    const dismiss = {
      targetKind: 'post',
      targetId: postId,
      action: 'dismiss',
      reason: 'Gone anyway',
    };
    expect(
      (await send(t.app, 'POST', '/api/admin/reports/resolve', dismiss, as(moderator))).statusCode,
    ).toBe(200);
    expectError(
      await send(t.app, 'POST', '/api/admin/reports/resolve', dismiss, as(moderator)),
      409,
      'conflict',
    );
  });

  it('authorises every action: roles, equal and higher roles, the target, inactive and suspended', async () => {
    const [user, target] = await Promise.all([signUp(t.app), signUp(t.app)]);
    const body = { reason: 'Because', duration: '1d' };
    // Anonymous, users and inactive staff do not reach the console.
    expectError(await suspend(null, target.user.uid, body), 401, 'unauthenticated');
    expectError(await suspend(user, target.user.uid, body), 403, 'forbidden');
    expectError(
      await send(t.app, 'GET', '/api/admin/reports', undefined, as(user)),
      403,
      'forbidden',
    );
    expectError(
      await send(t.app, 'GET', '/api/admin/reports', undefined, as(inactive)),
      403,
      'account_inactive',
    );
    expectError(
      await report(inactive, { targetKind: 'profile', targetId: target.user.uid, reason: 'spam' }),
      403,
      'account_inactive',
    );
    // A reason is mandatory.
    expectError(
      await suspend(moderator, target.user.uid, { duration: '1d' }),
      400,
      'validation_failed',
      'reason',
    );
    expectError(
      await suspend(moderator, target.user.uid, { reason: '   ', duration: '1d' }),
      400,
      'validation_failed',
      'reason',
    );
    expectError(
      await send(t.app, 'POST', `/api/admin/users/${target.user.uid}/warnings`, {}, as(moderator)),
      400,
      'validation_failed',
    );
    // Equal or higher roles, and oneself.
    expectError(await suspend(moderator, moderator2.user.uid, body), 403, 'forbidden');
    expectError(await suspend(moderator, admin.user.uid, body), 403, 'forbidden');
    expectError(await suspend(admin, admin2.user.uid, body), 403, 'forbidden');
    expectError(await suspend(moderator, moderator.user.uid, body), 403, 'forbidden');
    expect((await suspend(admin, moderator2.user.uid, body)).statusCode).toBe(200);
    // A suspended moderator acts no more, but reads their suspension and appeals.
    expectError(await suspend(moderator2, target.user.uid, body), 403, 'account_suspended');
    expect(
      (await send(t.app, 'GET', '/api/me/suspension', undefined, as(moderator2))).statusCode,
    ).toBe(200);
    expect(
      (await send(t.app, 'POST', '/api/me/appeal', { text: 'Please' }, as(moderator2))).statusCode,
    ).toBe(201);
    expect(
      (
        await send(
          t.app,
          'POST',
          `/api/admin/users/${moderator2.user.uid}/suspension/lift`,
          { reason: 'Ok' },
          as(admin),
        )
      ).statusCode,
    ).toBe(200);
    // The target of reports cannot resolve them.
    const reported = await report(user, {
      targetKind: 'profile',
      targetId: moderator.user.uid,
      reason: 'harassment',
    });
    expect(reported.statusCode, reported.body).toBe(201);
    expectError(
      await send(
        t.app,
        'POST',
        '/api/admin/reports/resolve',
        {
          targetKind: 'profile',
          targetId: moderator.user.uid,
          action: 'dismiss',
          reason: 'Not me',
        },
        as(moderator),
      ),
      403,
      'forbidden',
    );
    // Warnings reach the person by notification and mail.
    expect(
      (
        await send(
          t.app,
          'POST',
          `/api/admin/users/${target.user.uid}/warnings`,
          { reason: 'Be kind' },
          as(moderator),
        )
      ).statusCode,
    ).toBe(201);
    expect(
      (await notificationsOf(target)).find((n) => n.kind === 'warning')?.moderation?.reason,
    ).toBe('Be kind');
    expect(t.mail.sent.some((m) => m.to === target.input.email && /warning/i.test(m.subject))).toBe(
      true,
    );
  });

  it('lifts only a suspension in force, and lets an expired one lapse', async () => {
    const person = await signUp(t.app);
    expectError(
      await send(
        t.app,
        'POST',
        `/api/admin/users/${person.user.uid}/suspension/lift`,
        { reason: 'x' },
        as(moderator),
      ),
      409,
      'conflict',
    );
    expectError(
      await send(t.app, 'POST', '/api/me/appeal', { text: 'Why' }, as(person)),
      409,
      'conflict',
    );
    expect(
      (await suspend(moderator, person.user.uid, { reason: 'Cool off', duration: 'indefinite' }))
        .statusCode,
    ).toBe(200);
    // Still signed in: reads, changes nothing, signs out.
    expect((await send(t.app, 'GET', '/api/feed', undefined, as(person))).statusCode).toBe(200);
    expectError(
      await send(t.app, 'POST', '/api/posts', { body: 'x' }, as(person)),
      403,
      'account_suspended',
    );
    // The sweep republishes lapsed suspensions: a time past the end reads as not suspended.
    const lifted = await send(
      t.app,
      'POST',
      `/api/admin/users/${person.user.uid}/suspension/lift`,
      { reason: 'Done' },
      as(moderator),
    );
    expect(lifted.statusCode, lifted.body).toBe(200);
    expectError(
      await send(
        t.app,
        'POST',
        `/api/admin/users/${person.user.uid}/suspension/lift`,
        { reason: 'Again' },
        as(moderator),
      ),
      409,
      'conflict',
    );
    const mine = mySuspensionSchema.parse(
      (await send(t.app, 'GET', '/api/me/suspension', undefined, as(person))).json(),
    );
    expect(mine.suspension).toBeNull();
  });

  it('hides a removed comment from others and keeps it for its author', async () => {
    const [author, commenter, reader] = await Promise.all([
      signUp(t.app),
      signUp(t.app),
      signUp(t.app),
    ]);
    const postId = await post(author, 'A calm post');
    const created = await send(
      t.app,
      'POST',
      `/api/posts/${postId}/comments`,
      { body: 'A rude comment' },
      as(commenter),
    );
    expect(created.statusCode, created.body).toBe(201);
    const commentId = created.json<{ id: string }>().id;
    const removed = await send(
      t.app,
      'POST',
      `/api/admin/comments/${commentId}/removal`,
      { reason: 'Rude' },
      as(moderator),
    );
    expect(removed.statusCode, removed.body).toBe(200);
    expectError(
      await send(
        t.app,
        'POST',
        `/api/admin/comments/${commentId}/removal`,
        { reason: 'Rude' },
        as(moderator),
      ),
      409,
      'conflict',
    );
    const threads = (person: Person) =>
      send(t.app, 'GET', `/api/posts/${postId}/comments`, undefined, as(person)).then((response) =>
        threadPageSchema.parse(response.json()).items.map((item) => item.id),
      );
    expect(await threads(reader)).not.toContain(commentId);
    expect(await threads(commenter)).toContain(commentId);
    const own = await send(t.app, 'GET', `/api/posts/${postId}/comments`, undefined, as(commenter));
    const mine = threadPageSchema.parse(own.json()).items.find((item) => item.id === commentId);
    expect(mine?.removal?.reason).toBe('Rude');

    // Nobody replies to it, likes it or edits it any more; to others it is simply not there.
    const reply = (person: Person) =>
      send(
        t.app,
        'POST',
        `/api/posts/${postId}/comments`,
        { body: 'A reply', parentId: commentId },
        as(person),
      );
    expectError(await reply(reader), 404, 'not_found');
    expectError(await reply(commenter), 403, 'forbidden');
    expectError(
      await send(t.app, 'PUT', `/api/comments/${commentId}/like`, undefined, as(reader)),
      404,
      'not_found',
    );
    expectError(
      await send(t.app, 'PATCH', `/api/comments/${commentId}`, { body: 'Nicer' }, as(commenter)),
      403,
      'forbidden',
    );
  });

  it('closes a removed post to comments and edits, and drops what it caused from others’ lists', async () => {
    const [author, mentioned, reader] = await Promise.all([
      signUp(t.app),
      signUp(t.app),
      signUp(t.app),
    ]);
    const postId = await post(author, `Look here @${mentioned.user.username}`);
    expect((await notificationsOf(mentioned)).map((item) => item.kind)).toContain('mention');
    const removed = await send(
      t.app,
      'POST',
      `/api/admin/posts/${postId}/removal`,
      { reason: 'Spam' },
      as(moderator),
    );
    expect(removed.statusCode, removed.body).toBe(200);

    // The mention goes from the mentioned person's list and count; the author still reads why.
    expect((await notificationsOf(mentioned)).map((item) => item.kind)).not.toContain('mention');
    const own = await send(t.app, 'GET', `/api/posts/${postId}`, undefined, as(author));
    expect(postViewSchema.parse(own.json()).removal?.reason).toBe('Spam');
    const comment = (person: Person) =>
      send(t.app, 'POST', `/api/posts/${postId}/comments`, { body: 'Hm' }, as(person));
    expectError(await comment(reader), 404, 'not_found');
    expectError(await comment(author), 403, 'forbidden');
    expectError(
      await send(t.app, 'GET', `/api/posts/${postId}/comments`, undefined, as(reader)),
      404,
      'not_found',
    );
    expectError(
      await send(t.app, 'PATCH', `/api/posts/${postId}`, { body: 'Edited back' }, as(author)),
      403,
      'forbidden',
    );
  });

  it('carries the live moderation topic to staff and refuses it to users', async () => {
    const [user, author] = await Promise.all([signUp(t.app), signUp(t.app)]);
    const staffSocket = await connectRealtime(baseUrl, { cookie: moderator.cookie });
    const userSocket = await connectRealtime(baseUrl, { cookie: user.cookie });
    const anonymousSocket = await connectRealtime(baseUrl);
    try {
      staffSocket.send({ type: 'subscribe', topic: moderationTopic });
      const first = await staffSocket.next();
      expect(first).toMatchObject({ type: 'doc', topic: moderationTopic });
      const before = moderationStateSchema.parse(first.type === 'doc' ? first.data : null);

      userSocket.send({ type: 'subscribe', topic: moderationTopic });
      expect(await userSocket.next()).toMatchObject({ type: 'error', code: 'forbidden' });
      anonymousSocket.send({ type: 'subscribe', topic: moderationTopic });
      expect(await anonymousSocket.next()).toMatchObject({
        type: 'error',
        code: 'unauthenticated',
      });

      const postId = await post(author);
      expect(
        (await report(user, { targetKind: 'post', targetId: postId, reason: 'spam' })).statusCode,
      ).toBe(201);
      const next = await staffSocket.next();
      const after = moderationStateSchema.parse(next.type === 'doc' ? next.data : null);
      expect(after.openReports).toBe(before.openReports + 1);
      expect(after.revision).not.toBe(before.revision);
    } finally {
      await Promise.all([staffSocket.close(), userSocket.close(), anonymousSocket.close()]);
    }
  });

  it('lets the operator act on anyone, recorded as the operator', async () => {
    const person = await signUp(t.app);
    const operator = { uid: null, role: 'admin' as const, operator: true };
    await t.app.services.moderation.warn(operator, admin.user.uid, 'From the command line');
    const state = await t.app.services.moderation.suspend(
      operator,
      person.user.uid,
      'Time out',
      '7d',
    );
    expect(state.suspended).toBe(true);
    const queue = await t.app.services.moderation.state();
    expect(queue.revision).toBeGreaterThan(0);
  });
});
