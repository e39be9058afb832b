import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, databaseTargets, send, type TestApp } from '../test/harness.js';
import { apiSecurityHeaders, securityHeaders } from './security.js';

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

/** A contract endpoint's answer: JSON, guarded as data rather than as a page (ADR 0047). */
const expectedApiOverHttp: Record<string, string> = {
  'content-security-policy': "default-src 'none';frame-ancestors 'none'",
  'cross-origin-resource-policy': 'same-origin',
  'x-content-type-options': 'nosniff',
  'x-frame-options': 'DENY',
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

  it("give an API answer a page's guards against sniffing, framing and other sites, and HSTS over https", () => {
    expect(apiSecurityHeaders(false)).toEqual(expectedApiOverHttp);
    expect(apiSecurityHeaders(true)).toEqual({
      ...expectedApiOverHttp,
      'strict-transport-security': 'max-age=63072000; includeSubDomains',
    });
    for (const name of Object.keys(expectedApiOverHttp)) {
      if (name !== 'content-security-policy') {
        expect(securityHeaders(null, false)[name], name).toBe(expectedApiOverHttp[name]);
      }
    }
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

  it("carry an API answer's set on an endpoint's success and refusals, and nothing a page needs", async () => {
    for (const response of [
      await send(t.app, 'GET', '/api/health'),
      await send(t.app, 'POST', '/api/auth/sign-in', {}, { origin: null }),
      await send(t.app, 'POST', '/api/auth/sign-in', '{', {
        headers: { 'content-type': 'application/json' },
      }),
    ]) {
      for (const [name, value] of Object.entries(expectedApiOverHttp)) {
        expect(response.headers[name], name).toBe(value);
      }
      for (const name of Object.keys(expectedOverHttp)) {
        if (!(name in expectedApiOverHttp)) expect(response.headers[name], name).toBeUndefined();
      }
    }
  });

  it("carry a page's whole set on whatever is not an endpoint, a 404 under /api/ included", async () => {
    for (const response of [
      await send(t.app, 'GET', '/api/no/such/thing'),
      await send(t.app, 'GET', '/api/docs'),
      await send(t.app, 'GET', '/feed'),
    ]) {
      for (const [name, value] of Object.entries(expectedOverHttp)) {
        expect(response.headers[name], name).toBe(value);
      }
    }
  });
});
