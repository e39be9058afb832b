import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, databaseTargets, send, signUp, type TestApp } from '../../test/harness.js';

describe.each(databaseTargets)('accounts on $name', (target) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp(target);
  });
  afterAll(async () => {
    await t.close();
  });

  it('signs up, sets an HttpOnly SameSite=Lax session cookie and answers the session', async () => {
    const { cookie, user, input } = await signUp(t.app, { username: 'Mixed_Case_1' });
    expect(user.username).toBe('mixed_case_1');
    const session = await send(t.app, 'GET', '/api/auth/session', undefined, { cookie });
    expect(session.statusCode).toBe(200);
    expect(session.json()).toMatchObject({ user: { uid: user.uid, email: input.email } });
  });
});
