import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  adminUserDetailSchema,
  adminUserPageSchema,
  moderationNoteSchema,
  type AdminUserDetail,
} from '../../../shared/schemas/admin-user.js';
import { meSchema } from '../../../shared/schemas/user.js';
import type { DatabaseHandle } from '../../db/database.js';
import {
  createTestApp,
  databaseTargets,
  expectError,
  newUserInput,
  openAppDatabase,
  send,
  signUp,
  type TestApp,
} from '../../test/harness.js';
import { operatorActor } from '../moderation/audit-log.repository.js';
import type { StaffActor } from './admin-users.service.js';

type Person = Awaited<ReturnType<typeof signUp>>;

const operator: StaffActor = { ...operatorActor, role: 'admin', operator: true };

describe.each(databaseTargets)('admin users on $name', (target) => {
  let t: TestApp;
  let database: DatabaseHandle;
  let admin: Person;
  let moderator: Person;
  let otherModerator: Person;
  let user: Person;
  let inactive: Person;
  let suspended: Person;

  const as = (person: Person | undefined) => ({ cookie: person?.cookie });

  async function detail(uid: string, viewer: Person = admin): Promise<AdminUserDetail> {
    const response = await send(t.app, 'GET', `/api/admin/users/${uid}`, undefined, as(viewer));
    expect(response.statusCode, response.body).toBe(200);
    return adminUserDetailSchema.parse(response.json());
  }

  async function list(query: string, viewer: Person = admin) {
    const response = await send(t.app, 'GET', `/api/admin/users${query}`, undefined, as(viewer));
    expect(response.statusCode, response.body).toBe(200);
    return adminUserPageSchema.parse(response.json());
  }

  async function sessionUser(person: Person) {
    const response = await send(t.app, 'GET', '/api/auth/session', undefined, as(person));
    return meSchema.nullable().parse(response.json<{ user: unknown }>().user);
  }

  async function auditActions(uid: string): Promise<string[]> {
    const rows = await database.db
      .selectFrom('moderation_actions')
      .select('action')
      .where('targetUserId', '=', uid)
      .orderBy('id')
      .execute();
    return rows.map((row) => row.action);
  }

  async function setApprovalMode(question: string | null) {
    await t.app.services.instanceSettings.update({
      registrationMode: 'approval',
      signupQuestion: question,
    });
  }

  beforeAll(async () => {
    t = await createTestApp(target);
    database = openAppDatabase(t);
    [admin, moderator, otherModerator, user, inactive, suspended] = await Promise.all([
      signUp(t.app, { firstName: 'Grace' }),
      signUp(t.app),
      signUp(t.app),
      signUp(t.app, { firstName: 'Zebediah' }),
      signUp(t.app),
      signUp(t.app),
    ]);
    await t.app.services.users.setRole(admin.user.username, 'admin');
    await t.app.services.users.setRole(moderator.user.username, 'moderator');
    await t.app.services.users.setRole(otherModerator.user.username, 'moderator');
    await t.app.services.users.setRole(inactive.user.username, 'moderator');
    await t.app.services.users.setActive(inactive.user.username, false);
    await t.app.services.users.setRole(suspended.user.username, 'moderator');
    await database.db
      .updateTable('users')
      .set({ suspendedAt: new Date().toISOString(), suspensionReason: 'Testing' })
      .where('id', '=', suspended.user.uid)
      .execute();
  });

  afterAll(async () => {
    await database.close();
    await t.close();
  });

  describe('who may use the console', () => {
    it('refuses anonymous, users, inactive and suspended staff; lets moderators and admins in', async () => {
      const url = `/api/admin/users/${user.user.uid}`;
      expectError(await send(t.app, 'GET', url), 401, 'unauthenticated');
      expectError(await send(t.app, 'GET', url, undefined, as(user)), 403, 'forbidden');
      expectError(await send(t.app, 'GET', url, undefined, as(inactive)), 403, 'account_inactive');
      expectError(
        await send(t.app, 'GET', url, undefined, as(suspended)),
        403,
        'account_suspended',
      );
      expect((await detail(user.user.uid, moderator)).uid).toBe(user.user.uid);
      expect((await detail(user.user.uid, admin)).email).toBe(user.input.email);
    });

    it('answers 404 for an account that does not exist and 400 for a malformed id', async () => {
      expectError(
        await send(t.app, 'GET', '/api/admin/users/nobody_here', undefined, as(admin)),
        404,
        'not_found',
      );
      expectError(
        await send(t.app, 'GET', '/api/admin/users/bad%20id', undefined, as(admin)),
        400,
        'validation_failed',
      );
    });
  });

  describe('the list', () => {
    it('searches username prefixes, names and emails, and filters by role and state', async () => {
      const byUsername = await list(`?q=${user.user.username.slice(0, 12)}`);
      expect(byUsername.items.map((row) => row.uid)).toContain(user.user.uid);
      const byName = await list('?q=zebed');
      expect(byName.items.map((row) => row.uid)).toEqual([user.user.uid]);
      expect(byName.items[0]?.email).toBe(user.input.email);
      const byEmail = await list(`?q=${encodeURIComponent(admin.input.email.toUpperCase())}`);
      expect(byEmail.items.map((row) => row.uid)).toEqual([admin.user.uid]);
      // LIKE wildcards are taken literally.
      expect((await list('?q=%25')).items).toEqual([]);

      const moderators = await list('?role=moderator');
      expect(moderators.items.every((row) => row.role === 'moderator')).toBe(true);
      expect(moderators.items.map((row) => row.uid)).toContain(moderator.user.uid);
      const deactivated = await list('?state=deactivated');
      expect(deactivated.items.map((row) => row.uid)).toEqual([inactive.user.uid]);
      const suspendedRows = await list('?state=suspended');
      expect(suspendedRows.items.map((row) => row.uid)).toEqual([suspended.user.uid]);
      expect(suspendedRows.items[0]?.state).toBe('suspended');
      const active = await list('?state=active');
      expect(active.items.map((row) => row.uid)).not.toContain(suspended.user.uid);
      expect(active.items.map((row) => row.uid)).toContain(user.user.uid);
    });

    it('pages newest first with a cursor, and refuses a forged one', async () => {
      const first = await list('?limit=2');
      expect(first.items).toHaveLength(2);
      expect(first.nextCursor).not.toBeNull();
      const second = await list(`?limit=2&cursor=${first.nextCursor ?? ''}`);
      const seen = new Set([...first.items, ...second.items].map((row) => row.uid));
      expect(seen.size).toBe(4);
      expect((first.items[0]?.createdAt ?? '') >= (second.items[0]?.createdAt ?? '')).toBe(true);
      expectError(
        await send(t.app, 'GET', '/api/admin/users?cursor=bm9wZQ', undefined, as(admin)),
        400,
        'validation_failed',
      );
      expectError(
        await send(t.app, 'GET', `/api/admin/users?q=${'x'.repeat(101)}`, undefined, as(admin)),
        400,
        'validation_failed',
      );
    });
  });

  describe('authorisation on a particular account', () => {
    it('tells the viewer what they may do', async () => {
      expect((await detail(user.user.uid, moderator)).permissions).toMatchObject({
        act: true,
        changeRole: false,
        delete: false,
      });
      expect((await detail(user.user.uid, admin)).permissions).toMatchObject({
        act: true,
        changeRole: true,
        delete: true,
      });
      expect((await detail(otherModerator.user.uid, moderator)).permissions.act).toBe(false);
      expect((await detail(admin.user.uid, admin)).permissions.reason).toMatch(/own account/);
    });

    it('refuses a moderator acting on a moderator or an admin, and anyone acting on themselves', async () => {
      for (const [viewer, targetUid] of [
        [moderator, otherModerator.user.uid],
        [moderator, admin.user.uid],
        [moderator, moderator.user.uid],
      ] as const) {
        expectError(
          await send(
            t.app,
            'PUT',
            `/api/admin/users/${targetUid}/active`,
            { active: false },
            as(viewer),
          ),
          403,
          'forbidden',
        );
        expectError(
          await send(
            t.app,
            'POST',
            `/api/admin/users/${targetUid}/notes`,
            { body: 'x' },
            as(viewer),
          ),
          403,
          'forbidden',
        );
      }
      expectError(
        await send(
          t.app,
          'PUT',
          `/api/admin/users/${admin.user.uid}/role`,
          { role: 'user' },
          as(admin),
        ),
        403,
        'forbidden',
      );
      // Harmless on oneself: signing one's own sessions out.
      const self = await signUp(t.app);
      await t.app.services.users.setRole(self.user.username, 'moderator');
      const ended = await send(
        t.app,
        'DELETE',
        `/api/admin/users/${self.user.uid}/sessions`,
        undefined,
        as(self),
      );
      expect(ended.statusCode, ended.body).toBe(204);
      expect(await sessionUser(self)).toBeNull();
    });

    it('leaves role changes and deletions to administrators', async () => {
      const target = await signUp(t.app);
      expectError(
        await send(
          t.app,
          'PUT',
          `/api/admin/users/${target.user.uid}/role`,
          { role: 'moderator' },
          as(moderator),
        ),
        403,
        'forbidden',
      );
      expectError(
        await send(
          t.app,
          'POST',
          `/api/admin/users/${target.user.uid}/deletion`,
          { reason: 'Spam' },
          as(moderator),
        ),
        403,
        'forbidden',
      );
      expect(await auditActions(target.user.uid)).toEqual([]);
    });

    it('never demotes or deletes the last administrator, even for the operator', async () => {
      await expect(
        t.app.services.usersAdmin.setRole(operator, admin.user.uid, 'user'),
      ).rejects.toMatchObject({ status: 409 });
      await expect(
        t.app.services.usersAdmin.delete(operator, admin.user.uid, 'Leaving'),
      ).rejects.toMatchObject({ status: 409 });
      expect((await detail(admin.user.uid)).role).toBe('admin');
    });
  });

  describe('actions', () => {
    it('deactivates (ending every session) and activates, recording both', async () => {
      const target = await signUp(t.app);
      const response = await send(
        t.app,
        'PUT',
        `/api/admin/users/${target.user.uid}/active`,
        { active: false, reason: 'Spam wave' },
        as(moderator),
      );
      expect(response.statusCode, response.body).toBe(204);
      expect(await sessionUser(target)).toBeNull();
      expect((await detail(target.user.uid)).state).toBe('deactivated');
      expectError(
        await send(
          t.app,
          'PUT',
          `/api/admin/users/${target.user.uid}/active`,
          { active: false },
          as(moderator),
        ),
        409,
        'conflict',
      );
      const back = await send(
        t.app,
        'PUT',
        `/api/admin/users/${target.user.uid}/active`,
        { active: true },
        as(moderator),
      );
      expect(back.statusCode, back.body).toBe(204);
      const after = await detail(target.user.uid);
      expect(after.state).toBe('active');
      expect(after.history.map((entry) => entry.action)).toEqual([
        'user_activated',
        'user_deactivated',
      ]);
      expect(after.history[1]?.reason).toBe('Spam wave');
      expect(after.history[1]?.actorName).toBe(`@${moderator.user.username}`);
    });

    it('changes roles as an administrator, recording the change', async () => {
      const target = await signUp(t.app);
      const response = await send(
        t.app,
        'PUT',
        `/api/admin/users/${target.user.uid}/role`,
        { role: 'moderator' },
        as(admin),
      );
      expect(response.statusCode, response.body).toBe(204);
      expect((await detail(target.user.uid)).role).toBe('moderator');
      expectError(
        await send(
          t.app,
          'PUT',
          `/api/admin/users/${target.user.uid}/role`,
          { role: 'moderator' },
          as(admin),
        ),
        409,
        'conflict',
      );
      expectError(
        await send(
          t.app,
          'PUT',
          `/api/admin/users/${target.user.uid}/role`,
          { role: 'owner' },
          as(admin),
        ),
        400,
        'validation_failed',
        'role',
      );
      expect(await auditActions(target.user.uid)).toEqual(['role_changed']);
      // Now a moderator: other moderators can no longer act on them.
      expect((await detail(target.user.uid, moderator)).permissions.act).toBe(false);
    });

    it('signs an account out everywhere and mails a reset link', async () => {
      const target = await signUp(t.app);
      const ended = await send(
        t.app,
        'DELETE',
        `/api/admin/users/${target.user.uid}/sessions`,
        undefined,
        as(moderator),
      );
      expect(ended.statusCode, ended.body).toBe(204);
      expect(await sessionUser(target)).toBeNull();
      const reset = await send(
        t.app,
        'POST',
        `/api/admin/users/${target.user.uid}/reset-link`,
        undefined,
        as(moderator),
      );
      expect(reset.statusCode, reset.body).toBe(204);
      await expect
        .poll(() => t.mail.lastTo(target.input.email)?.link ?? '')
        .toMatch(/\/reset-password\?token=/);
      expect(await auditActions(target.user.uid)).toEqual(['sessions_revoked', 'reset_link_sent']);
    });

    it('adds bounded moderation notes, shown newest first', async () => {
      const target = await signUp(t.app);
      const url = `/api/admin/users/${target.user.uid}/notes`;
      const added = await send(t.app, 'POST', url, { body: '  Watch this one  ' }, as(moderator));
      expect(added.statusCode, added.body).toBe(201);
      expect(moderationNoteSchema.parse(added.json())).toMatchObject({
        body: 'Watch this one',
        authorName: `@${moderator.user.username}`,
      });
      expectError(
        await send(t.app, 'POST', url, { body: ' ' }, as(moderator)),
        400,
        'validation_failed',
        'body',
      );
      expectError(
        await send(t.app, 'POST', url, { body: 'x'.repeat(2_001) }, as(moderator)),
        400,
        'validation_failed',
        'body',
      );
      const seen = await detail(target.user.uid);
      expect(seen.notes.map((note) => note.body)).toEqual(['Watch this one']);
      expect(seen.history.map((entry) => entry.action)).toEqual(['note_added']);
    });

    it('deletes an account with its content as an administrator, with a reason', async () => {
      const target = await signUp(t.app);
      const posted = await send(t.app, 'POST', '/api/posts', { body: 'Buy now' }, as(target));
      expect(posted.statusCode, posted.body).toBe(201);
      expect((await detail(target.user.uid)).recentPosts).toHaveLength(1);
      expectError(
        await send(t.app, 'POST', `/api/admin/users/${target.user.uid}/deletion`, {}, as(admin)),
        400,
        'validation_failed',
        'reason',
      );
      const deleted = await send(
        t.app,
        'POST',
        `/api/admin/users/${target.user.uid}/deletion`,
        { reason: 'Spam account' },
        as(admin),
      );
      expect(deleted.statusCode, deleted.body).toBe(204);
      expectError(
        await send(t.app, 'GET', `/api/admin/users/${target.user.uid}`, undefined, as(admin)),
        404,
        'not_found',
      );
      const posts = await database.db
        .selectFrom('posts')
        .select('id')
        .where('authorId', '=', target.user.uid)
        .execute();
      expect(posts).toEqual([]);
      const entry = await database.db
        .selectFrom('moderation_actions')
        .select(['action', 'reason', 'targetName'])
        .where('action', '=', 'user_deleted')
        .where('targetName', '=', target.user.username)
        .executeTakeFirst();
      expect(entry).toEqual({
        action: 'user_deleted',
        reason: 'Spam account',
        targetName: target.user.username,
      });
    });
  });

  describe('approval mode', () => {
    it('asks the question, keeps the answer, and approves with a mail; the applicant can then post', async () => {
      await setApprovalMode('What brings you here?');
      try {
        const input = newUserInput();
        expectError(
          await send(t.app, 'POST', '/api/auth/sign-up', input),
          400,
          'validation_failed',
          'signupAnswer',
        );
        const response = await send(t.app, 'POST', '/api/auth/sign-up', {
          ...input,
          signupAnswer: 'I knit.',
        });
        expect(response.statusCode, response.body).toBe(201);
        const me = meSchema.parse(response.json<{ user: unknown }>().user);
        expect(me).toMatchObject({ active: false, awaitingApproval: true });
        const cookie = response.cookies.map((c) => `${c.name}=${c.value}`).join('; ');
        expectError(
          await send(t.app, 'POST', '/api/posts', { body: 'Hello' }, { cookie }),
          403,
          'account_inactive',
        );

        const pending = await list('?state=pending');
        expect(pending.items.map((row) => row.uid)).toEqual([me.uid]);
        expect((await detail(me.uid)).signupAnswer).toBe('I knit.');
        expectError(
          await send(
            t.app,
            'PUT',
            `/api/admin/users/${me.uid}/active`,
            { active: true },
            as(moderator),
          ),
          409,
          'conflict',
        );

        const approved = await send(
          t.app,
          'POST',
          `/api/admin/users/${me.uid}/approval`,
          undefined,
          as(moderator),
        );
        expect(approved.statusCode, approved.body).toBe(204);
        await expect.poll(() => t.mail.lastTo(input.email)?.subject ?? '').toMatch(/approved/);
        const posted = await send(t.app, 'POST', '/api/posts', { body: 'Hello' }, { cookie });
        expect(posted.statusCode, posted.body).toBe(201);
        expect((await detail(me.uid)).state).toBe('active');
        expectError(
          await send(
            t.app,
            'POST',
            `/api/admin/users/${me.uid}/approval`,
            undefined,
            as(moderator),
          ),
          409,
          'conflict',
        );
        expect(await auditActions(me.uid)).toEqual(['signup_approved']);
      } finally {
        await t.app.services.instanceSettings.update({
          registrationMode: 'open',
          signupQuestion: null,
        });
      }
    });

    it('rejects with the reason mailed, and deletes the account', async () => {
      await setApprovalMode(null);
      try {
        const applicant = await signUp(t.app);
        expect((await detail(applicant.user.uid)).state).toBe('pending');
        expectError(
          await send(
            t.app,
            'POST',
            `/api/admin/users/${applicant.user.uid}/rejection`,
            {},
            as(moderator),
          ),
          400,
          'validation_failed',
          'reason',
        );
        const rejected = await send(
          t.app,
          'POST',
          `/api/admin/users/${applicant.user.uid}/rejection`,
          { reason: 'We are full.' },
          as(moderator),
        );
        expect(rejected.statusCode, rejected.body).toBe(204);
        await expect
          .poll(() => t.mail.lastTo(applicant.input.email)?.text ?? '')
          .toMatch(/We are full\./);
        expect(await sessionUser(applicant)).toBeNull();
        expectError(
          await send(t.app, 'GET', `/api/admin/users/${applicant.user.uid}`, undefined, as(admin)),
          404,
          'not_found',
        );
        // An account not waiting for approval cannot be rejected.
        expectError(
          await send(
            t.app,
            'POST',
            `/api/admin/users/${user.user.uid}/rejection`,
            { reason: 'x' },
            as(moderator),
          ),
          409,
          'conflict',
        );
      } finally {
        await t.app.services.instanceSettings.update({ registrationMode: 'open' });
      }
    });

    it('creates active accounts again once the mode is open, ignoring any answer', async () => {
      const response = await send(t.app, 'POST', '/api/auth/sign-up', {
        ...newUserInput(),
        signupAnswer: 'unused',
      });
      expect(response.statusCode, response.body).toBe(201);
      const me = meSchema.parse(response.json<{ user: unknown }>().user);
      expect(me).toMatchObject({ active: true, awaitingApproval: false });
      expect((await detail(me.uid)).signupAnswer).toBeNull();
    });
  });
});
