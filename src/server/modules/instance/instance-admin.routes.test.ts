import type { LightMyRequestResponse } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  instanceLimits,
  instanceRulesSchema,
  instanceSchema,
  instanceSettingsSchema,
  type InstanceRules,
} from '../../../shared/schemas/instance.js';
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

type As = { cookie: string | undefined };

describe.each(databaseTargets)('instance settings and rules on $name', (target) => {
  let t: TestApp;
  let database: DatabaseHandle;
  const anonymous: As = { cookie: undefined };
  let user: As;
  let moderator: As;
  let admin: As;
  /** An administrator whose account was deactivated. */
  let inactiveAdmin: As;
  /** An administrator suspended by another. */
  let suspendedAdmin: As;

  beforeAll(async () => {
    t = await createTestApp(target);
    database = openAppDatabase(t);
    const [u, m, a, i, s] = await Promise.all(Array.from({ length: 5 }, () => signUp(t.app)));
    if (!u || !m || !a || !i || !s) throw new Error('sign-up failed');
    await t.app.services.users.setRole(m.user.username, 'moderator');
    for (const person of [a, i, s])
      await t.app.services.users.setRole(person.user.username, 'admin');
    await t.app.services.users.setActive(i.user.username, false);
    const now = new Date();
    await database.db
      .updateTable('users')
      .set({
        suspendedAt: now.toISOString(),
        suspendedUntil: new Date(now.getTime() + 86_400_000).toISOString(),
        suspensionReason: 'Testing',
      })
      .where('id', '=', s.user.uid)
      .execute();
    [user, moderator, admin, inactiveAdmin, suspendedAdmin] = [u, m, a, i, s];
  });

  afterAll(async () => {
    await database.close();
    await t.close();
  });

  const call = (
    method: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE',
    url: string,
    as: As,
    body?: unknown,
  ) => send(t.app, method, url, body, { cookie: as.cookie });

  function rulesOf(response: LightMyRequestResponse, status = 200): InstanceRules {
    expect(response.statusCode, response.body).toBe(status);
    return instanceRulesSchema.parse(response.json());
  }

  async function describeInstance() {
    const response = await send(t.app, 'GET', '/api/instance');
    expect(response.statusCode, response.body).toBe(200);
    return instanceSchema.parse(response.json());
  }

  async function auditActions(action: string) {
    return database.db
      .selectFrom('moderation_actions')
      .selectAll()
      .where('action', '=', action)
      .orderBy('id')
      .execute();
  }

  it('lets moderators read the settings, administrators alone change them', async () => {
    expectError(await call('GET', '/api/admin/instance', anonymous), 401, 'unauthenticated');
    expectError(await call('GET', '/api/admin/instance', user), 403, 'forbidden');
    expectError(await call('GET', '/api/admin/instance', inactiveAdmin), 403, 'account_inactive');
    expectError(await call('GET', '/api/admin/instance', suspendedAdmin), 403, 'account_suspended');
    for (const reader of [moderator, admin]) {
      const response = await call('GET', '/api/admin/instance', reader);
      expect(response.statusCode, response.body).toBe(200);
      expect(instanceSettingsSchema.parse(response.json())).toEqual({
        registrationMode: 'open',
        signupQuestion: null,
        publicModerationLog: false,
      });
    }

    const change = { publicModerationLog: true };
    expectError(
      await call('PATCH', '/api/admin/instance', anonymous, change),
      401,
      'unauthenticated',
    );
    expectError(await call('PATCH', '/api/admin/instance', user, change), 403, 'forbidden');
    expectError(await call('PATCH', '/api/admin/instance', moderator, change), 403, 'forbidden');
    expectError(
      await call('PATCH', '/api/admin/instance', inactiveAdmin, change),
      403,
      'account_inactive',
    );
    expectError(
      await call('PATCH', '/api/admin/instance', suspendedAdmin, change),
      403,
      'account_suspended',
    );
    expect((await describeInstance()).publicModerationLog).toBe(false);
    expect(await auditActions('settings_changed')).toHaveLength(0);
  });

  it('refuses bad settings with a 400 and changes nothing', async () => {
    expectError(await call('PATCH', '/api/admin/instance', admin, {}), 400, 'validation_failed');
    expectError(
      await call('PATCH', '/api/admin/instance', admin, { registrationMode: 'invite' }),
      400,
      'validation_failed',
      'registrationMode',
    );
    expectError(
      await call('PATCH', '/api/admin/instance', admin, {
        signupQuestion: 'x'.repeat(instanceLimits.signupQuestion + 1),
      }),
      400,
      'validation_failed',
      'signupQuestion',
    );
    expectError(
      await call('PATCH', '/api/admin/instance', admin, { publicModerationLog: 'yes' }),
      400,
      'validation_failed',
      'publicModerationLog',
    );
    expect(await describeInstance()).toMatchObject({
      registrationMode: 'open',
      signupQuestion: null,
      publicModerationLog: false,
    });
  });

  it('applies the registration mode an administrator sets to sign-up at once, and records it', async () => {
    const closed = await call('PATCH', '/api/admin/instance', admin, {
      registrationMode: 'closed',
    });
    expect(closed.statusCode, closed.body).toBe(200);
    expect(instanceSettingsSchema.parse(closed.json()).registrationMode).toBe('closed');
    expect((await describeInstance()).registrationMode).toBe('closed');
    const refused = await send(t.app, 'POST', '/api/auth/sign-up', newUserInput());
    expectError(refused, 403, 'registration_closed');

    const question = '  What brings you here?  ';
    const approval = await call('PATCH', '/api/admin/instance', admin, {
      registrationMode: 'approval',
      signupQuestion: question,
    });
    expect(approval.statusCode, approval.body).toBe(200);
    expect(await describeInstance()).toMatchObject({
      registrationMode: 'approval',
      signupQuestion: 'What brings you here?',
    });
    // In approval mode a new account waits: it cannot post until someone lets it in.
    const waiting = await signUp(t.app, { signupAnswer: 'Friends of mine are here.' });
    const row = await database.db
      .selectFrom('users')
      .select(['active', 'awaitingApproval'])
      .where('id', '=', waiting.user.uid)
      .executeTakeFirstOrThrow();
    expect(!row.active || Boolean(row.awaitingApproval)).toBe(true);

    // A blank question is no question.
    const reopened = await call('PATCH', '/api/admin/instance', admin, {
      registrationMode: 'open',
      signupQuestion: '   ',
    });
    expect(instanceSettingsSchema.parse(reopened.json())).toMatchObject({
      registrationMode: 'open',
      signupQuestion: null,
    });
    const welcomed = await signUp(t.app);
    const open = await database.db
      .selectFrom('users')
      .select(['active'])
      .where('id', '=', welcomed.user.uid)
      .executeTakeFirstOrThrow();
    expect(Boolean(open.active)).toBe(true);

    const entries = await auditActions('settings_changed');
    expect(entries).toHaveLength(3);
    const [first, second, third] = entries;
    expect(first?.actorId).not.toBeNull();
    expect(first?.actorName).toMatch(/^@person_/);
    expect(JSON.parse(first?.details ?? 'null')).toEqual({
      registrationMode: { from: 'open', to: 'closed' },
    });
    expect(JSON.parse(second?.details ?? 'null')).toEqual({
      registrationMode: { from: 'closed', to: 'approval' },
      signupQuestion: { from: null, to: 'What brings you here?' },
    });
    expect(JSON.parse(third?.details ?? 'null')).toEqual({
      registrationMode: { from: 'approval', to: 'open' },
      signupQuestion: { from: 'What brings you here?', to: null },
    });
    expect(Boolean(first?.public)).toBe(false);

    // Saving what is already so records nothing.
    const same = await call('PATCH', '/api/admin/instance', admin, { registrationMode: 'open' });
    expect(same.statusCode, same.body).toBe(200);
    expect(await auditActions('settings_changed')).toHaveLength(3);
  });

  it('lets administrators add, edit, reorder and delete rules, which everyone can read', async () => {
    expect(rulesOf(await call('GET', '/api/instance/rules', anonymous))).toEqual({
      rules: [],
      max: instanceLimits.rules,
    });
    const kind = rulesOf(
      await call('POST', '/api/admin/instance/rules', admin, {
        text: '  Be kind  ',
        description: 'Disagree with ideas, not people.',
      }),
      201,
    );
    expect(kind.rules.map((rule) => [rule.text, rule.description])).toEqual([
      ['Be kind', 'Disagree with ideas, not people.'],
    ]);
    rulesOf(await call('POST', '/api/admin/instance/rules', admin, { text: 'No spam' }), 201);
    const three = rulesOf(
      await call('POST', '/api/admin/instance/rules', admin, { text: 'No hate', description: '' }),
      201,
    );
    expect(three.rules.map((rule) => [rule.text, rule.description])).toEqual([
      ['Be kind', 'Disagree with ideas, not people.'],
      ['No spam', null],
      ['No hate', null],
    ]);
    const [a, b, c] = three.rules.map((rule) => rule.id);
    if (!a || !b || !c) throw new Error('three rules expected');

    const edited = rulesOf(
      await call('PATCH', `/api/admin/instance/rules/${b}`, admin, {
        text: 'No spam or scams',
        description: 'Including links to them.',
      }),
    );
    expect(edited.rules[1]).toEqual({
      id: b,
      text: 'No spam or scams',
      description: 'Including links to them.',
    });

    const reordered = rulesOf(
      await call('PUT', '/api/admin/instance/rules/order', admin, { ids: [c, a, b] }),
    );
    expect(reordered.rules.map((rule) => rule.id)).toEqual([c, a, b]);
    expect(
      rulesOf(await call('GET', '/api/instance/rules', anonymous)).rules.map((rule) => rule.id),
    ).toEqual([c, a, b]);

    const left = rulesOf(await call('DELETE', `/api/admin/instance/rules/${a}`, admin));
    expect(left.rules.map((rule) => rule.text)).toEqual(['No hate', 'No spam or scams']);

    const recorded = await auditActions('rules_changed');
    expect(
      recorded.map((entry) => (JSON.parse(entry.details ?? '{}') as { change?: string }).change),
    ).toEqual(['added', 'added', 'added', 'edited', 'reordered', 'deleted']);
    expect(recorded.at(-1)).toMatchObject({
      subjectKind: 'rule',
      subjectId: a,
      excerpt: 'Be kind',
    });
    expect(Boolean(recorded[0]?.public)).toBe(true);
  });

  it('refuses bad rules, unknown ids and stale orders with a clear 4xx', async () => {
    const before = rulesOf(await call('GET', '/api/instance/rules', anonymous)).rules;
    const ids = before.map((rule) => rule.id);
    const [first] = ids;
    if (!first) throw new Error('a rule expected');
    expectError(
      await call('POST', '/api/admin/instance/rules', admin, { text: '   ' }),
      400,
      'validation_failed',
      'text',
    );
    expectError(
      await call('POST', '/api/admin/instance/rules', admin, {
        text: 'x'.repeat(instanceLimits.ruleText + 1),
      }),
      400,
      'validation_failed',
      'text',
    );
    expectError(
      await call('PATCH', `/api/admin/instance/rules/${first}`, admin, {
        text: 'Fine',
        description: 'x'.repeat(instanceLimits.ruleDescription + 1),
      }),
      400,
      'validation_failed',
      'description',
    );
    expectError(
      await call('PATCH', '/api/admin/instance/rules/999999', admin, { text: 'Gone' }),
      404,
      'not_found',
    );
    expectError(await call('DELETE', '/api/admin/instance/rules/999999', admin), 404, 'not_found');
    expectError(
      await call('DELETE', '/api/admin/instance/rules/not-an-id', admin),
      400,
      'validation_failed',
    );
    // Missing one, naming one twice, naming one that does not exist.
    for (const order of [ids.slice(1), [...ids, first], [...ids.slice(1), '999999']]) {
      expectError(
        await call('PUT', '/api/admin/instance/rules/order', admin, { ids: order }),
        409,
        'conflict',
      );
    }
    expect(rulesOf(await call('GET', '/api/instance/rules', anonymous)).rules).toEqual(before);
  });

  it('keeps rule changes to active administrators', async () => {
    const before = rulesOf(await call('GET', '/api/instance/rules', anonymous)).rules;
    const [rule] = before;
    if (!rule) throw new Error('a rule expected');
    const writes: [method: 'POST' | 'PATCH' | 'DELETE' | 'PUT', url: string, body?: unknown][] = [
      ['POST', '/api/admin/instance/rules', { text: 'Sneaky' }],
      ['PATCH', `/api/admin/instance/rules/${rule.id}`, { text: 'Sneaky' }],
      ['DELETE', `/api/admin/instance/rules/${rule.id}`],
      ['PUT', '/api/admin/instance/rules/order', { ids: before.map((r) => r.id).reverse() }],
    ];
    for (const [method, url, body] of writes) {
      expectError(await call(method, url, anonymous, body), 401, 'unauthenticated');
      expectError(await call(method, url, user, body), 403, 'forbidden');
      expectError(await call(method, url, moderator, body), 403, 'forbidden');
      expectError(await call(method, url, inactiveAdmin, body), 403, 'account_inactive');
      expectError(await call(method, url, suspendedAdmin, body), 403, 'account_suspended');
    }
    // Everyone reads them, signed in or not, suspended or not.
    for (const reader of [anonymous, user, inactiveAdmin, suspendedAdmin]) {
      expect(rulesOf(await call('GET', '/api/instance/rules', reader)).rules).toEqual(before);
    }
  });

  it('holds at most the limit of rules', async () => {
    const { rules } = rulesOf(await call('GET', '/api/instance/rules', anonymous));
    for (let count = rules.length; count < instanceLimits.rules; count += 1) {
      rulesOf(
        await call('POST', '/api/admin/instance/rules', admin, { text: `Rule ${count + 1}` }),
        201,
      );
    }
    expectError(
      await call('POST', '/api/admin/instance/rules', admin, { text: 'One too many' }),
      409,
      'conflict',
    );
    expect(rulesOf(await call('GET', '/api/instance/rules', anonymous)).rules).toHaveLength(
      instanceLimits.rules,
    );
  });
});
