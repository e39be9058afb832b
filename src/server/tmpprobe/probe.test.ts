import { it } from 'vitest';
import { createTestApp, databaseTargets, send, signUp, openAppDatabase } from '../test/harness.js';

it('probe', async () => {
  for (const target of databaseTargets) {
  const t = await createTestApp(target);
  const r = await send(t.app, 'POST', '/api/auth/sign-up', { email: 'a@b.test', username: 'probe1', password: 'copper kettle sings', firstName: 'A', lastName: 'B' });
  console.log(r.statusCode, r.headers['set-cookie'], r.body);
  const p = await send(t.app, 'POST', '/api/auth/sign-up', 'hello', { headers: { 'content-type': 'text/plain' } });
  console.log(p.statusCode, p.body);
  const j = await send(t.app, 'POST', '/api/auth/sign-up', '{"email":', { headers: { 'content-type': 'application/json' } });
  console.log(j.statusCode, j.body);
  const n = await send(t.app, 'POST', '/api/auth/sign-up', 'null', { headers: { 'content-type': 'application/json' } });
  console.log(n.statusCode, n.body);
  const big = await send(t.app, 'POST', '/api/auth/sign-up', { email: 'x'.repeat(70000) });
  console.log(big.statusCode, big.body);
  const e = await send(t.app, 'POST', '/api/auth/sign-up', '', { headers: { 'content-type': 'application/json' } });
  console.log(e.statusCode, e.body);
  const nb = await send(t.app, 'POST', '/api/auth/sign-up');
  console.log(nb.statusCode, nb.body);
  const rr = await send(t.app, 'POST', '/api/auth/request-password-reset', { email: 'a@b.test' });
  console.log(rr.statusCode, rr.body, t.mail.sent.length, t.mail.sent[0]?.link);
  const h = openAppDatabase(t);
  console.log(await h.db.selectFrom('verifications').selectAll().execute());
  await h.close();
  for (const u of ['/api/users/%00', '/api/users/%ff', '/api/users/%2e%2e%2f', '/api/users/' + 'a'.repeat(500), '/api/users/%E2%9C%93', '/api/users/by-username/%ff', '/api/users/by-username/%00', '/api/users/by-username/' + 'a'.repeat(500), '/api/users/by-username/%E2%9C%93', '/api/%ff', '/%ff', '/api/users/by-username/..%2f..%2f']) {
    const x = await send(t.app, 'GET', u);
    console.log(u.slice(0, 40), x.statusCode, x.headers['content-type'], x.body.slice(0, 200));
  }
  await t.close();
  }
});
