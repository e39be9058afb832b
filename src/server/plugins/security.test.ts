import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { LightMyRequestResponse } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  cookieFrom,
  createTestApp,
  databaseTargets,
  newUserInput,
  send,
  type TestApp,
} from '../test/harness.js';

/** The directives of a Content-Security-Policy header, by name. */
function cspDirectives(response: LightMyRequestResponse): Map<string, string[]> {
  const header = response.headers['content-security-policy'];
  expect(typeof header).toBe('string');
  const directives = new Map<string, string[]>();
  for (const part of String(header).split(';')) {
    const [name, ...values] = part.trim().split(/\s+/);
    if (name) directives.set(name.toLowerCase(), values);
  }
  return directives;
}

const strictReferrerPolicies = [
  'no-referrer',
  'same-origin',
  'strict-origin',
  'strict-origin-when-cross-origin',
];

/** What guards every response, API or page: no sniffing, no framing, no script from elsewhere. */
function expectGuards(response: LightMyRequestResponse) {
  const csp = cspDirectives(response);
  for (const source of csp.get('script-src') ?? csp.get('default-src') ?? []) {
    expect(["'self'", "'none'"]).toContain(source);
  }
  expect(csp.get('frame-ancestors')).toEqual(["'none'"]);
  expect(response.headers['x-content-type-options']).toBe('nosniff');
  expect(response.headers['x-frame-options']).toBe('DENY');
  expect(response.headers['x-powered-by']).toBeUndefined();
}

/** The headers every page carries. */
function expectPageHeaders(response: LightMyRequestResponse) {
  expectGuards(response);
  const csp = cspDirectives(response);
  expect(csp.get('script-src')).toEqual(["'self'"]);
  expect(csp.get('default-src')).toEqual(["'self'"]);
  expect(csp.get('object-src')).toEqual(["'none'"]);
  expect(csp.get('base-uri')).toEqual(["'self'"]);
  expect(strictReferrerPolicies).toContain(response.headers['referrer-policy']);
}

/** The headers of an endpoint's JSON: nothing may run or load in it, nor may another site read it. */
function expectApiHeaders(response: LightMyRequestResponse) {
  expectGuards(response);
  expect(response.headers['content-type']).toMatch(/^application\/json/);
  expect(cspDirectives(response).get('default-src')).toEqual(["'none'"]);
  expect(response.headers['cross-origin-resource-policy']).toBe('same-origin');
}

/** A minimal web build: the page and one hashed asset. */
function makeWebBuild(): string {
  const webDir = mkdtempSync(path.join(tmpdir(), 'hearth-web-'));
  mkdirSync(path.join(webDir, 'assets'));
  writeFileSync(
    path.join(webDir, 'index.html'),
    '<!doctype html><html><head><script type="module" src="/assets/app-abc123.js"></script></head><body></body></html>',
  );
  writeFileSync(path.join(webDir, 'assets', 'app-abc123.js'), 'console.log("hearth");\n');
  return webDir;
}

describe.each(databaseTargets)('security headers over http on $name', (target) => {
  let t: TestApp;
  let webDir: string;
  beforeAll(async () => {
    webDir = makeWebBuild();
    t = await createTestApp(target, { WEB_DIR: webDir });
  });
  afterAll(async () => {
    await t.close();
    rmSync(webDir, { recursive: true, force: true });
  });

  it('sets them on an API response, without HSTS', async () => {
    const response = await send(t.app, 'GET', '/api/instance');
    expect(response.statusCode).toBe(200);
    expectApiHeaders(response);
    expect(response.headers['strict-transport-security']).toBeUndefined();
    expect(cspDirectives(response).has('upgrade-insecure-requests')).toBe(false);
  });

  it('sets them on an HTML page', async () => {
    const response = await send(t.app, 'GET', '/feed');
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-type']).toMatch(/^text\/html/);
    expectPageHeaders(response);
    expect(response.headers['strict-transport-security']).toBeUndefined();
  });

  it('sets them on error responses too', async () => {
    const notFound = await send(t.app, 'GET', '/api/no/such/thing');
    expect(notFound.statusCode).toBe(404);
    expectPageHeaders(notFound);
    for (const response of [
      await send(t.app, 'POST', '/api/auth/sign-in', '{', {
        headers: { 'content-type': 'application/json' },
      }),
      await send(t.app, 'POST', '/api/auth/sign-in', {}, { origin: null }),
    ]) {
      expect(response.statusCode).toBeGreaterThanOrEqual(400);
      expectApiHeaders(response);
    }
  });

  it.each(['POST', 'PUT', 'PATCH', 'DELETE'] as const)(
    'checks the Origin of every %s to the API, even one that matches no route',
    async (method) => {
      const missing = await send(t.app, method, '/api/anything/at/all', {}, { origin: null });
      expect(missing.statusCode).toBe(403);
      expect(missing.json()).toMatchObject({ error: { code: 'origin_mismatch' } });
      const foreign = await send(
        t.app,
        method,
        '/api/anything/at/all',
        {},
        {
          origin: 'https://attacker.example',
        },
      );
      expect(foreign.statusCode).toBe(403);
      const same = await send(t.app, method, '/api/anything/at/all', {});
      expect(same.statusCode).toBe(404);
    },
  );
});

describe.each(databaseTargets)('over https on $name', (target) => {
  const publicUrl = 'https://hearth.example';
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp(target, { PUBLIC_URL: publicUrl });
  });
  afterAll(async () => {
    await t.close();
  });

  it('sends HSTS on every answer, and asks pages to upgrade insecure requests', async () => {
    const api = await send(t.app, 'GET', '/api/health', undefined, { origin: publicUrl });
    expectApiHeaders(api);
    const page = await send(t.app, 'GET', '/api/no/such/thing', undefined, { origin: publicUrl });
    expectPageHeaders(page);
    for (const response of [api, page]) {
      const hsts = String(response.headers['strict-transport-security']);
      const maxAge = Number(/max-age=(\d+)/.exec(hsts)?.[1]);
      expect(maxAge).toBeGreaterThanOrEqual(365 * 24 * 60 * 60);
      expect(hsts).toMatch(/includeSubDomains/i);
    }
    // An API answer loads nothing, so it has nothing to upgrade.
    expect(cspDirectives(page).has('upgrade-insecure-requests')).toBe(true);
  });

  it('names the session cookie __Host-hearth.session_token, Secure, HttpOnly, Lax, Path=/, no Domain', async () => {
    const response = await send(t.app, 'POST', '/api/auth/sign-up', newUserInput(), {
      origin: publicUrl,
    });
    expect(response.statusCode).toBe(201);
    const cookie = response.cookies.find((c) => c.name === '__Host-hearth.session_token');
    expect(cookie).toMatchObject({ secure: true, httpOnly: true, sameSite: 'Lax', path: '/' });
    expect(cookie?.domain).toBeUndefined();
    // No cookie leaks out under the plain name.
    expect(response.cookies.filter((c) => !c.name.startsWith('__Host-'))).toEqual([]);

    const session = await send(t.app, 'GET', '/api/auth/session', undefined, {
      origin: publicUrl,
      cookie: cookieFrom(response),
    });
    expect(session.json()).toMatchObject({ user: { uid: expect.any(String) as string } });
  });

  it('refuses the http origin of the same host', async () => {
    const response = await send(t.app, 'POST', '/api/auth/sign-up', newUserInput(), {
      origin: 'http://hearth.example',
    });
    expect(response.statusCode).toBe(403);
  });
});
