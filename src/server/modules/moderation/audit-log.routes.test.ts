import type { LightMyRequestResponse } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  auditPageSchema,
  publicLogPageSchema,
  type AuditPage,
  type PublicLogPage,
} from '../../../shared/schemas/audit.js';
import type { DatabaseHandle } from '../../db/database.js';
import {
  createTestApp,
  databaseTargets,
  expectError,
  openAppDatabase,
  send,
  signUp,
  type TestApp,
} from '../../test/harness.js';
import { AuditLogRepository, operatorActor } from './audit-log.repository.js';

type As = { cookie: string | undefined };

describe.each(databaseTargets)('the audit log and the public moderation log on $name', (target) => {
  let t: TestApp;
  let database: DatabaseHandle;
  const anonymous: As = { cookie: undefined };
  let user: As & { username: string; uid: string };
  let moderator: As & { username: string; uid: string };
  let admin: As & { username: string; uid: string };
  let inactiveModerator: As;
  let suspendedModerator: As;
  /** Words that must never reach the public log. */
  const secrets = {
    note: 'PRIVATE-NOTE-shared-with-moderators',
    excerpt: 'REMOVED-WORDS-of-the-post',
    details: 'DETAILS-reporter-person_reporter',
  };

  beforeAll(async () => {
    t = await createTestApp(target);
    database = openAppDatabase(t);
    const people = await Promise.all(Array.from({ length: 5 }, () => signUp(t.app)));
    const [u, m, a, i, s] = people;
    if (!u || !m || !a || !i || !s) throw new Error('sign-up failed');
    await t.app.services.users.setRole(a.user.username, 'admin');
    for (const person of [m, i, s]) {
      await t.app.services.users.setRole(person.user.username, 'moderator');
    }
    await t.app.services.users.setActive(i.user.username, false);
    await database.db
      .updateTable('users')
      .set({
        suspendedAt: new Date().toISOString(),
        suspendedUntil: null,
        suspensionReason: 'Test',
      })
      .where('id', '=', s.user.uid)
      .execute();
    const person = (p: typeof u) => ({
      cookie: p.cookie,
      username: p.user.username,
      uid: p.user.uid,
    });
    [user, moderator, admin] = [person(u), person(m), person(a)];
    [inactiveModerator, suspendedModerator] = [i, s];

    const audit = new AuditLogRepository(database.db);
    const mod = { uid: moderator.uid, name: `@${moderator.username}` };
    const bob = { uid: user.uid, username: user.username };
    // Oldest first: a removal, a non-public note, a suspension, a sign-up decision, one by the operator.
    await audit.record({
      actor: mod,
      action: 'content_removed',
      target: bob,
      subject: { kind: 'post', id: '41', excerpt: secrets.excerpt },
      reason: 'Spam links',
      note: secrets.note,
      details: { reporters: [secrets.details] },
    });
    await audit.record({
      actor: mod,
      action: 'note_added',
      target: bob,
      note: 'Keeps posting the same link.',
    });
    await audit.record({
      actor: mod,
      action: 'user_suspended',
      target: bob,
      reason: 'Repeated spam',
      note: secrets.note,
      details: { duration: '3d', until: new Date(Date.now() + 3 * 86_400_000).toISOString() },
    });
    await audit.record({
      actor: { uid: admin.uid, name: `@${admin.username}` },
      action: 'signup_rejected',
      target: { uid: i.user.uid, username: 'applicant' },
      reason: 'No answer',
    });
    await audit.record({
      actor: operatorActor,
      action: 'suspension_lifted',
      target: bob,
      reason: 'Appeal heard',
    });
  });

  afterAll(async () => {
    await database.close();
    await t.close();
  });

  const get = (url: string, as: As) => send(t.app, 'GET', url, undefined, { cookie: as.cookie });

  function auditOf(response: LightMyRequestResponse): AuditPage {
    expect(response.statusCode, response.body).toBe(200);
    return auditPageSchema.parse(response.json());
  }

  function publicOf(response: LightMyRequestResponse): PublicLogPage {
    expect(response.statusCode, response.body).toBe(200);
    return publicLogPageSchema.parse(response.json());
  }

  it('shows moderators and administrators every entry, newest first, with everything recorded', async () => {
    expectError(await get('/api/admin/audit', anonymous), 401, 'unauthenticated');
    expectError(await get('/api/admin/audit', user), 403, 'forbidden');
    expectError(await get('/api/admin/audit', inactiveModerator), 403, 'account_inactive');
    expectError(await get('/api/admin/audit', suspendedModerator), 403, 'account_suspended');
    expect(auditOf(await get('/api/admin/audit', admin)).items).toHaveLength(5);

    const page = auditOf(await get('/api/admin/audit', moderator));
    expect(page.items.map((entry) => entry.action)).toEqual([
      'suspension_lifted',
      'signup_rejected',
      'user_suspended',
      'note_added',
      'content_removed',
    ]);
    expect(page.nextCursor).toBeNull();
    const removal = page.items.at(-1);
    expect(removal).toMatchObject({
      action: 'content_removed',
      actor: { uid: moderator.uid, name: `@${moderator.username}` },
      target: { uid: user.uid, username: user.username },
      subject: { kind: 'post', id: '41', excerpt: secrets.excerpt },
      reason: 'Spam links',
      note: secrets.note,
      details: { reporters: [secrets.details] },
      public: true,
    });
    expect(page.items[0]?.actor).toEqual({ uid: null, name: 'operator' });
    expect(page.items[1]?.public).toBe(false);
  });

  it('filters by action, actor and target, and pages by cursor', async () => {
    const byAction = auditOf(await get('/api/admin/audit?action=user_suspended', moderator));
    expect(byAction.items.map((entry) => entry.action)).toEqual(['user_suspended']);

    for (const name of [
      moderator.username,
      `@${moderator.username}`,
      moderator.username.toUpperCase(),
    ]) {
      const byActor = auditOf(
        await get(`/api/admin/audit?actor=${encodeURIComponent(name)}`, moderator),
      );
      expect(byActor.items.map((entry) => entry.action)).toEqual([
        'user_suspended',
        'note_added',
        'content_removed',
      ]);
    }
    const byOperator = auditOf(await get('/api/admin/audit?actor=operator', moderator));
    expect(byOperator.items.map((entry) => entry.action)).toEqual(['suspension_lifted']);

    const byTarget = auditOf(await get('/api/admin/audit?target=applicant', moderator));
    expect(byTarget.items.map((entry) => entry.action)).toEqual(['signup_rejected']);
    const combined = auditOf(
      await get(
        `/api/admin/audit?target=${user.username}&actor=${moderator.username}&action=note_added`,
        moderator,
      ),
    );
    expect(combined.items.map((entry) => entry.action)).toEqual(['note_added']);
    // Empty filters are no filters.
    expect(
      auditOf(await get('/api/admin/audit?action=&actor=&target=', moderator)).items,
    ).toHaveLength(5);
    expect(auditOf(await get('/api/admin/audit?actor=nobody_here', moderator)).items).toEqual([]);

    const seen: string[] = [];
    let cursor: string | null = null;
    let pages = 0;
    do {
      const next: AuditPage = auditOf(
        await get(`/api/admin/audit?limit=2${cursor ? `&cursor=${cursor}` : ''}`, moderator),
      );
      expect(next.items.length).toBeLessThanOrEqual(2);
      seen.push(...next.items.map((entry) => entry.action));
      cursor = next.nextCursor;
      pages += 1;
    } while (cursor && pages < 10);
    expect(pages).toBe(3);
    expect(seen).toEqual([
      'suspension_lifted',
      'signup_rejected',
      'user_suspended',
      'note_added',
      'content_removed',
    ]);

    expectError(
      await get('/api/admin/audit?action=eaten', moderator),
      400,
      'validation_failed',
      'action',
    );
    expectError(
      await get('/api/admin/audit?cursor=abc', moderator),
      400,
      'validation_failed',
      'cursor',
    );
    expectError(
      await get('/api/admin/audit?actor=a%20b', moderator),
      400,
      'validation_failed',
      'actor',
    );
    expectError(
      await get('/api/admin/audit?limit=1000', moderator),
      400,
      'validation_failed',
      'limit',
    );
  });

  it('publishes the public log only while an administrator says so, and then only what may be public', async () => {
    const closed = expectError(await get('/api/moderation-log', anonymous), 404, 'not_found');
    expect(closed.message).toMatch(/do not publish/);

    const on = await send(
      t.app,
      'PATCH',
      '/api/admin/instance',
      { publicModerationLog: true },
      {
        cookie: admin.cookie,
      },
    );
    expect(on.statusCode, on.body).toBe(200);

    for (const reader of [anonymous, user, suspendedModerator]) {
      const response = await get('/api/moderation-log', reader);
      const page = publicOf(response);
      expect(page.items.map((entry) => entry.action)).toEqual([
        'suspension_lifted',
        'user_suspended',
        'content_removed',
      ]);
      for (const entry of page.items) {
        expect(Object.keys(entry).sort()).toEqual(
          ['action', 'createdAt', 'id', 'reason', 'subjectKind', 'targetUsername'].sort(),
        );
      }
      expect(page.items.at(-1)).toMatchObject({
        action: 'content_removed',
        targetUsername: user.username,
        subjectKind: 'post',
        reason: 'Spam links',
      });
      for (const secret of [
        ...Object.values(secrets),
        moderator.username,
        admin.username,
        moderator.uid,
        user.uid,
        'operator',
        'applicant',
        'Keeps posting',
      ]) {
        expect(response.body).not.toContain(secret);
      }
    }

    const first = publicOf(await get('/api/moderation-log?limit=2', anonymous));
    expect(first.items).toHaveLength(2);
    expect(first.nextCursor).not.toBeNull();
    const second = publicOf(
      await get(`/api/moderation-log?limit=2&cursor=${first.nextCursor ?? ''}`, anonymous),
    );
    expect(second.items.map((entry) => entry.action)).toEqual(['content_removed']);
    expect(second.nextCursor).toBeNull();
    expectError(await get('/api/moderation-log?cursor=x', anonymous), 400, 'validation_failed');

    const off = await send(
      t.app,
      'PATCH',
      '/api/admin/instance',
      { publicModerationLog: false },
      {
        cookie: admin.cookie,
      },
    );
    expect(off.statusCode, off.body).toBe(200);
    expectError(await get('/api/moderation-log', anonymous), 404, 'not_found');
  });
});
