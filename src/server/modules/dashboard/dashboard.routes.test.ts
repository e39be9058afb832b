import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { rateLimits } from '../../../shared/limits.js';
import {
  dashboardSchema,
  webVitalsReportSchema,
  type Dashboard,
} from '../../../shared/schemas/dashboard.js';
import type { DatabaseHandle } from '../../db/database.js';
import {
  createTestApp,
  databaseTargets,
  expectError,
  openAppDatabase,
  send,
  signUp,
  uniqueIp,
  type TestApp,
} from '../../test/harness.js';
import { utcDay } from './dashboard.service.js';

type Person = Awaited<ReturnType<typeof signUp>>;

const dayMs = 24 * 60 * 60_000;

describe.each(databaseTargets)('dashboard on $name', (target) => {
  let t: TestApp;
  let database: DatabaseHandle;
  let user: Person;
  let moderator: Person;
  let admin: Person;
  let inactiveModerator: Person;
  let suspendedModerator: Person;

  beforeAll(async () => {
    t = await createTestApp(target);
    database = openAppDatabase(t);
    [user, moderator, admin, inactiveModerator, suspendedModerator] = await Promise.all([
      signUp(t.app),
      signUp(t.app),
      signUp(t.app),
      signUp(t.app),
      signUp(t.app),
    ]);
    await t.app.services.users.setRole(moderator.user.username, 'moderator');
    await t.app.services.users.setRole(admin.user.username, 'admin');
    await t.app.services.users.setRole(inactiveModerator.user.username, 'moderator');
    await t.app.services.users.setActive(inactiveModerator.user.username, false);
    await t.app.services.users.setRole(suspendedModerator.user.username, 'moderator');
    await database.db
      .updateTable('users')
      .set({ suspendedAt: new Date().toISOString(), suspensionReason: 'Testing' })
      .where('id', '=', suspendedModerator.user.uid)
      .execute();
  });

  afterAll(async () => {
    await database.close();
    await t.close();
  });

  beforeEach(() => t.app.services.dashboard.forget());

  async function dashboard(as: Person = moderator): Promise<Dashboard> {
    const response = await send(t.app, 'GET', '/api/admin/dashboard', undefined, {
      cookie: as.cookie,
    });
    expect(response.statusCode, response.body).toBe(200);
    return dashboardSchema.parse(response.json());
  }

  for (const path of ['/api/admin/dashboard', '/api/admin/web-vitals']) {
    it(`lets only active, unsuspended staff read ${path}`, async () => {
      expectError(await send(t.app, 'GET', path), 401, 'unauthenticated');
      expectError(await send(t.app, 'GET', path, undefined, user), 403, 'forbidden');
      expectError(
        await send(t.app, 'GET', path, undefined, inactiveModerator),
        403,
        'account_inactive',
      );
      expectError(
        await send(t.app, 'GET', path, undefined, suspendedModerator),
        403,
        'account_suspended',
      );
      for (const staff of [moderator, admin]) {
        const response = await send(t.app, 'GET', path, undefined, staff);
        expect(response.statusCode, response.body).toBe(200);
      }
    });
  }

  it('counts 30 zero-filled UTC days, totals and the moderation backlog', async () => {
    const before = await dashboard();
    expect(before.days).toHaveLength(30);
    expect(before.days.at(-1)?.day).toBe(utcDay(new Date()));
    expect(before.days[0]?.day).toBe(utcDay(new Date(Date.now() - 29 * dayMs)));

    // Today: two posts and a comment through the API.
    const posts = [];
    for (const body of ['First post', 'Second post']) {
      const response = await send(t.app, 'POST', '/api/posts', { body }, user);
      expect(response.statusCode, response.body).toBe(201);
      posts.push(response.json<{ id: string }>().id);
    }
    const comment = await send(
      t.app,
      'POST',
      `/api/posts/${posts[0] ?? ''}/comments`,
      { body: 'A comment' },
      moderator,
    );
    expect(comment.statusCode, comment.body).toBe(201);
    // Three days ago, and 40 days ago (outside the charts, inside the totals).
    const threeDaysAgo = new Date(Date.now() - 3 * dayMs);
    const longAgo = new Date(Date.now() - 40 * dayMs);
    for (const at of [threeDaysAgo, threeDaysAgo, longAgo]) {
      await database.db
        .insertInto('posts')
        .values({ authorId: user.user.uid, body: 'Backdated', createdAt: at.toISOString() })
        .execute();
    }
    // Backlog: an open and a resolved report, a pending appeal, a sign-up waiting, an image.
    for (const status of ['open', 'resolved']) {
      await database.db
        .insertInto('reports')
        .values({
          reporterId: moderator.user.uid,
          targetKind: 'post',
          targetId: posts[0] ?? '',
          targetUserId: user.user.uid,
          reason: 'spam',
          snapshot: '{}',
          status,
          createdAt: new Date().toISOString(),
        })
        .execute();
    }
    await database.db
      .insertInto('appeals')
      .values({
        userId: suspendedModerator.user.uid,
        actionId: 1,
        text: 'Please',
        status: 'pending',
        createdAt: new Date().toISOString(),
      })
      .execute();
    const waiting = await signUp(t.app);
    await database.db
      .updateTable('users')
      .set({ awaitingApproval: true })
      .where('id', '=', waiting.user.uid)
      .execute();
    await database.db
      .insertInto('media')
      .values({
        id: 'dashboard-test-media',
        ownerId: user.user.uid,
        purpose: 'post',
        alt: null,
        width: 10,
        height: 10,
        renditions: '{}',
        createdAt: new Date().toISOString(),
      })
      .execute();

    // Still counted from the cache for half a minute…
    const cached = await dashboard();
    expect(cached.totals).toEqual(before.totals);
    t.app.services.dashboard.forget();
    // …then afresh.
    const after = await dashboard(admin);
    const today = after.days.at(-1);
    const beforeToday = before.days.at(-1);
    expect(today?.posts).toBe((beforeToday?.posts ?? 0) + 2);
    expect(today?.comments).toBe((beforeToday?.comments ?? 0) + 1);
    expect(today?.signups).toBe((beforeToday?.signups ?? 0) + 1);
    const dayOf = (dashboard: Dashboard, day: string) =>
      dashboard.days.find((entry) => entry.day === day);
    expect(dayOf(after, utcDay(threeDaysAgo))?.posts).toBe(
      (dayOf(before, utcDay(threeDaysAgo))?.posts ?? 0) + 2,
    );
    // Every other day is present and zero (nothing else happened on this instance).
    for (const entry of after.days) {
      if (entry.day === utcDay(threeDaysAgo) || entry === today) continue;
      expect(entry, entry.day).toEqual({ day: entry.day, signups: 0, posts: 0, comments: 0 });
    }
    expect(after.totals).toEqual({
      users: before.totals.users + 1,
      posts: before.totals.posts + 5,
      comments: before.totals.comments + 1,
    });
    expect(after.openReports).toBe(before.openReports + 1);
    expect(after.openAppeals).toBe(before.openAppeals + 1);
    expect(after.awaitingApproval).toBe(before.awaitingApproval + 1);
    expect(after.media.count).toBe(before.media.count + 1);
  });

  it('keeps lastActiveAt from signed-in requests, writing it at most once per ten minutes', async () => {
    const person = await signUp(t.app);
    const lastActive = async () =>
      (
        await database.db
          .selectFrom('users')
          .select('lastActiveAt')
          .where('id', '=', person.user.uid)
          .executeTakeFirstOrThrow()
      ).lastActiveAt;
    const response = await send(t.app, 'GET', '/api/notifications/unread', undefined, person);
    expect(response.statusCode, response.body).toBe(200);
    await expect.poll(lastActive).not.toBeNull();
    const written = new Date(String(await lastActive())).getTime();
    expect(Math.abs(written - Date.now())).toBeLessThan(60_000);

    // Five days ago, as far as the database knows: the next request within ten minutes leaves it alone.
    const fiveDaysAgo = new Date(Date.now() - 5 * dayMs);
    await database.db
      .updateTable('users')
      .set({ lastActiveAt: fiveDaysAgo.toISOString() })
      .where('id', '=', person.user.uid)
      .execute();
    await send(t.app, 'GET', '/api/notifications/unread', undefined, person);
    await new Promise((resolve) => setTimeout(resolve, 50));
    // PostgreSQL may keep whole seconds.
    const kept = new Date(String(await lastActive())).getTime();
    expect(Math.abs(kept - fiveDaysAgo.getTime())).toBeLessThan(1_000);

    const counts = await dashboard();
    expect(counts.activeUsers.week).toBeGreaterThanOrEqual(1);
    const month = counts.activeUsers.month;
    const day = counts.activeUsers.day;
    // Counted in the week and month, not the last day.
    await database.db
      .updateTable('users')
      .set({ lastActiveAt: new Date().toISOString() })
      .where('id', '=', person.user.uid)
      .execute();
    t.app.services.dashboard.forget();
    const later = await dashboard();
    expect(later.activeUsers.day).toBe(day + 1);
    expect(later.activeUsers.month).toBe(month);
    expect(later.activeUsers.day).toBeLessThanOrEqual(later.activeUsers.week);
    expect(later.activeUsers.week).toBeLessThanOrEqual(later.activeUsers.month);
  });
});

describe.each(databaseTargets)('web-vitals reports on $name', (target) => {
  let t: TestApp;
  let database: DatabaseHandle;
  let moderator: Person;
  const oldDay = utcDay(new Date(Date.now() - 40 * dayMs));

  beforeAll(async () => {
    t = await createTestApp(target);
    database = openAppDatabase(t);
    moderator = await signUp(t.app);
    await t.app.services.users.setRole(moderator.user.username, 'moderator');
    // A day past keeping, to be pruned by the first report.
    await database.db
      .insertInto('web_vitals')
      .values({ day: oldDay, page: '/', metric: 'LCP', bucket: 40, count: 3 })
      .execute();
  });

  afterAll(async () => {
    await database.close();
    await t.close();
  });

  const report = (body: unknown, options: { ip?: string; origin?: string | null } = {}) =>
    send(t.app, 'POST', '/api/vitals', body, options);

  it('keeps daily histograms, adding to them, and prunes days past keeping', async () => {
    const entries = [
      { page: '/post/:postId', metric: 'LCP', value: 1_000 },
      { page: '/post/:postId', metric: 'LCP', value: 1_000 },
      { page: '/post/:postId', metric: 'CLS', value: 0.05 },
      { page: '/', metric: 'TTFB', value: 3_000 },
    ];
    const first = await report({ entries });
    expect(first.statusCode, first.body).toBe(204);
    expect((await report({ entries: entries.slice(0, 1) })).statusCode).toBe(204);

    const rows = await database.db
      .selectFrom('web_vitals')
      .selectAll()
      .orderBy('page')
      .orderBy('metric')
      .execute();
    const today = utcDay(new Date());
    expect(rows).toEqual([
      { day: today, page: '/', metric: 'TTFB', bucket: 47, count: 1 },
      { day: today, page: '/post/:postId', metric: 'CLS', bucket: 36, count: 1 },
      { day: today, page: '/post/:postId', metric: 'LCP', bucket: 40, count: 3 },
    ]);
    expect(rows.some((row) => row.day === oldDay)).toBe(false);

    t.app.services.dashboard.forget();
    const response = await send(t.app, 'GET', '/api/admin/web-vitals', undefined, moderator);
    expect(response.statusCode, response.body).toBe(200);
    const summary = webVitalsReportSchema.parse(response.json());
    expect(summary.days).toBe(7);
    expect(summary.since).toBe(utcDay(new Date(Date.now() - 6 * dayMs)));
    // Most samples first.
    expect(summary.pages.map((page) => page.page)).toEqual(['/post/:postId', '/']);
    const post = summary.pages[0]?.metrics ?? [];
    expect(post.map((metric) => metric.metric)).toEqual(['LCP', 'CLS']);
    expect(post[0]).toMatchObject({ samples: 3, rating: 'good' });
    expect(post[0]?.p75).toBeGreaterThan(900);
    expect(post[0]?.p75).toBeLessThan(1_100);
    expect(post[1]).toMatchObject({ samples: 1, rating: 'good' });
    expect(summary.pages[1]?.metrics).toEqual([
      expect.objectContaining({ metric: 'TTFB', samples: 1, rating: 'poor' }),
    ]);
  });

  it('refuses bad batches with a 400, and writes nothing', async () => {
    const before = await database.db.selectFrom('web_vitals').selectAll().execute();
    const good = { page: '/', metric: 'LCP', value: 1_200 };
    for (const [body, field] of [
      [{ entries: [] }, 'entries'],
      [{ entries: Array.from({ length: 21 }, () => good) }, 'entries'],
      [{ entries: [{ ...good, metric: 'FID' }] }, 'entries'],
      [{ entries: [{ ...good, page: '/alice' }] }, 'entries'],
      [{ entries: [{ ...good, value: -1 }] }, 'entries'],
      [{ entries: [{ ...good, value: 120_001 }] }, 'entries'],
      [{ entries: [{ ...good, metric: 'CLS', value: 101 }] }, 'entries'],
      [{ entries: [{ ...good, value: '1200' }] }, 'entries'],
      [{}, 'entries'],
    ] as const) {
      expectError(await report(body), 400, 'validation_failed', field);
    }
    const unparsable = await send(t.app, 'POST', '/api/vitals', '{"entries": [', {
      headers: { 'content-type': 'application/json' },
    });
    expect(unparsable.statusCode, unparsable.body).toBe(400);
    expect((await report('entries')).statusCode).toBe(415);
    expect(await database.db.selectFrom('web_vitals').selectAll().execute()).toEqual(before);
  });

  it('takes reports from this origin only', async () => {
    const body = { entries: [{ page: '/', metric: 'FCP', value: 900 }] };
    expectError(
      await report(body, { origin: 'https://elsewhere.example' }),
      403,
      'origin_mismatch',
    );
    expectError(await report(body, { origin: null }), 403, 'origin_mismatch');
  });

  it('limits reports per address', async () => {
    const ip = uniqueIp();
    const body = { entries: [{ page: '/search', metric: 'INP', value: 80 }] };
    for (let index = 0; index < rateLimits.webVitals.max; index += 1) {
      const response = await report(body, { ip });
      expect(response.statusCode, response.body).toBe(204);
    }
    expectError(await report(body, { ip }), 429, 'rate_limited');
    // Another address is not affected.
    expect((await report(body)).statusCode).toBe(204);
  });
});
