import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, databaseTargets, send, type TestApp } from '../test/harness.js';
import { securityHeaders } from './security.js';

const csp =
  "default-src 'self';script-src 'self';style-src 'self';img-src 'self' data: blob:;font-src 'self';" +
  "connect-src 'self';media-src 'self';object-src 'none';base-uri 'self';form-action 'self';" +
  "frame-ancestors 'none';manifest-src 'self';worker-src 'self'";

/** The exact set the helmet middleware sent with this configuration, so none is lost or altered. */
const expectedOverHttp: Record<string, string> = {
  'content-security-policy': csp,
  'cross-origin-opener-policy': 'same-origin',
  'cross-origin-resource-policy': 'same-origin',
  'origin-agent-cluster': '?1',
  'referrer-policy': 'same-origin',
  'x-content-type-options': 'nosniff',
  'x-dns-prefetch-control': 'off',
  'x-download-options': 'noopen',
  'x-frame-options': 'DENY',
  'x-permitted-cross-domain-policies': 'none',
  'x-xss-protection': '0',
};

describe('security headers', () => {
  it('are the same set over http as before they were computed once', () => {
    expect(securityHeaders(null, false)).toEqual(expectedOverHttp);
  });

  it('add HSTS and the upgrade directive over https, and the media origin to img-src', () => {
    const headers = securityHeaders('https://media.example', true);
    expect(headers['strict-transport-security']).toBe('max-age=63072000; includeSubDomains');
    expect(headers['content-security-policy']).toBe(
      csp.replace('blob:;', 'blob: https://media.example;') + ';upgrade-insecure-requests',
    );
  });
});

describe.each(databaseTargets)('security headers on responses on $name', (target) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp(target);
  });
  afterAll(async () => {
    await t.close();
  });

  it('carry every header on a success, a 404 and a refused request', async () => {
    for (const response of [
      await send(t.app, 'GET', '/api/health'),
      await send(t.app, 'GET', '/api/no/such/thing'),
      await send(t.app, 'POST', '/api/auth/sign-in', {}, { origin: null }),
    ]) {
      for (const [name, value] of Object.entries(expectedOverHttp)) {
        expect(response.headers[name], name).toBe(value);
      }
    }
  });
});
