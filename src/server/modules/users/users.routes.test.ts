import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { errorBodySchema } from '../../../shared/errors.js';
import { userDocumentSchema } from '../../../shared/schemas/user.js';
import { NotFound } from '../../errors.js';
import { createTestApp, databaseTargets, send, signUp, type TestApp } from '../../test/harness.js';

describe.each(databaseTargets)('user documents on $name', (target) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp(target);
  });
  afterAll(async () => {
    await t.close();
  });

  it('serves the document by uid and by username in any case', async () => {
    const { user } = await signUp(t.app, { firstName: 'Grace', lastName: 'Hopper' });
    const byUid = await send(t.app, 'GET', `/api/users/${user.uid}`);
    expect(byUid.statusCode).toBe(200);
    const document = userDocumentSchema.parse(byUid.json());
    expect(document).toMatchObject({
      uid: user.uid,
      username: user.username,
      firstName: 'Grace',
      lastName: 'Hopper',
      role: 'user',
      active: true,
    });
    expect(new Date(document.createdAt).toISOString()).toBe(document.createdAt);

    for (const name of [user.username, user.username.toUpperCase()]) {
      const byName = await send(t.app, 'GET', `/api/users/by-username/${name}`);
      expect(byName.statusCode).toBe(200);
      expect(byName.json()).toEqual(byUid.json());
    }
  });

  it.each([
    ['an unknown uid', '/api/users/NoSuchUser_123'],
    ['an unknown username', '/api/users/by-username/no_such_person_here'],
  ])('answers %s with a JSON 404', async (_what, url) => {
    const response = await send(t.app, 'GET', url);
    expect(response.statusCode).toBe(404);
    expect(errorBodySchema.parse(response.json()).error.code).toBe('not_found');
  });

  const oddSegments = [
    '%00',
    'ada%00lovelace',
    '%ff',
    '%c3%28',
    '%2e%2e%2f',
    '..%2f..%2fetc%2fpasswd',
    '%2e%2e',
    'a'.repeat(500),
    '%E2%9C%93',
    'z%C3%B6e',
    '%F0%9F%98%80',
    '%0d%0aSet-Cookie:%20x=1',
    '%3Cscript%3E',
    '%25',
    'x%20y',
  ];

  it.each(oddSegments)(
    'answers the odd segment %s with a 4xx JSON error, never a 5xx',
    async (segment) => {
      for (const url of [`/api/users/${segment}`, `/api/users/by-username/${segment}`]) {
        const response = await send(t.app, 'GET', url);
        expect(response.statusCode, `${url}: ${response.body}`).toBeGreaterThanOrEqual(400);
        expect(response.statusCode, url).toBeLessThan(500);
        expect(response.headers['content-type']).toMatch(/^application\/json/);
        expect(errorBodySchema.safeParse(response.json()).success, response.body).toBe(true);
        expect(response.headers['set-cookie']).toBeUndefined();
      }
    },
  );

  describe('operator changes (t.app.services.users)', () => {
    it('setRole makes an administrator and back, and the document shows it', async () => {
      const { user } = await signUp(t.app);
      const admin = await t.app.services.users.setRole(user.username.toUpperCase(), 'admin');
      expect(admin).toMatchObject({ uid: user.uid, role: 'admin' });
      expect((await send(t.app, 'GET', `/api/users/${user.uid}`)).json()).toMatchObject({
        role: 'admin',
      });
      await t.app.services.users.setRole(user.username, 'user');
      expect((await send(t.app, 'GET', `/api/users/${user.uid}`)).json()).toMatchObject({
        role: 'user',
      });
    });

    it('setActive deactivates and reactivates, and the document shows it', async () => {
      const { user } = await signUp(t.app);
      expect(await t.app.services.users.setActive(user.username, false)).toMatchObject({
        uid: user.uid,
        active: false,
      });
      expect((await send(t.app, 'GET', `/api/users/${user.uid}`)).json()).toMatchObject({
        active: false,
      });
      await t.app.services.users.setActive(user.username, true);
      expect((await send(t.app, 'GET', `/api/users/${user.uid}`)).json()).toMatchObject({
        active: true,
      });
    });

    it('changes only the named user', async () => {
      const { user } = await signUp(t.app);
      const bystander = await signUp(t.app);
      await t.app.services.users.setRole(user.username, 'admin');
      await t.app.services.users.setActive(user.username, false);
      expect((await send(t.app, 'GET', `/api/users/${bystander.user.uid}`)).json()).toMatchObject({
        role: 'user',
        active: true,
      });
    });

    it('throws NotFound for an unknown username', async () => {
      await expect(t.app.services.users.setRole('no_such_person_here', 'admin')).rejects.toThrow(
        NotFound,
      );
      await expect(t.app.services.users.setActive('no_such_person_here', false)).rejects.toThrow(
        NotFound,
      );
    });
  });
});
