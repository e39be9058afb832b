import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, databaseTargets, send, type TestApp } from '../test/harness.js';

// Static serving does not touch the database; SQLite is enough here.
const sqlite = databaseTargets[0];
if (!sqlite) throw new Error('no database target');

const indexHtml =
  '<!doctype html><html><head><title>Hearth</title></head><body><div id="root"></div></body></html>';
const appJs = 'console.log("hearth");\n';

describe('the built web app', () => {
  let t: TestApp;
  let webDir: string;
  beforeAll(async () => {
    webDir = mkdtempSync(path.join(tmpdir(), 'hearth-web-'));
    mkdirSync(path.join(webDir, 'assets'));
    writeFileSync(path.join(webDir, 'index.html'), indexHtml);
    writeFileSync(path.join(webDir, 'assets', 'app-abc123.js'), appJs);
    t = await createTestApp(sqlite, { WEB_DIR: webDir });
  });
  afterAll(async () => {
    await t.close();
    rmSync(webDir, { recursive: true, force: true });
  });

  it('serves hashed assets as immutable for a year', async () => {
    const response = await send(t.app, 'GET', '/assets/app-abc123.js');
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-type']).toMatch(/javascript/);
    expect(response.body).toBe(appJs);
    const cacheControl = String(response.headers['cache-control']);
    expect(cacheControl).toMatch(/\bimmutable\b/);
    expect(cacheControl).toMatch(/max-age=31536000/);
  });

  it.each([
    '/',
    '/feed',
    '/some/client/route',
    '/ada_lovelace/edit-profile',
    '/reset-password?token=abc',
  ])('answers the client route %s with index.html, never cached', async (url) => {
    const response = await send(t.app, 'GET', url);
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-type']).toMatch(/^text\/html/);
    expect(response.headers['cache-control']).toBe('no-cache');
    expect(response.body).toContain('<div id="root"></div>');
  });

  it('never caches index.html asked for by name either', async () => {
    const response = await send(t.app, 'GET', '/index.html');
    expect(response.statusCode).toBe(200);
    expect(response.headers['cache-control']).toBe('no-cache');
  });

  it('answers a missing asset with 404, not the page', async () => {
    for (const url of ['/assets/missing.js', '/assets/app-abc124.js', '/missing.css']) {
      const response = await send(t.app, 'GET', url);
      expect(response.statusCode, url).toBe(404);
      expect(response.body).not.toContain('<div id="root">');
    }
  });

  it('never serves files outside the build', async () => {
    for (const url of [
      '/assets/..%2f..%2fpackage.json',
      '/..%2fpackage.json',
      '/%2e%2e/%2e%2e/etc/passwd',
      '/assets/%2e%2e%2findex.html%00.js',
    ]) {
      const response = await send(t.app, 'GET', url);
      expect(response.statusCode, url).toBeLessThan(500);
      expect(response.body, url).not.toMatch(/"name": "hearth"|root:x:0/);
    }
  });

  it('answers an unknown API path with a JSON 404', async () => {
    for (const url of ['/api/unknown', '/api', '/api/users/by-username']) {
      const response = await send(t.app, 'GET', url);
      expect(response.statusCode, url).toBe(404);
      expect(response.headers['content-type']).toMatch(/^application\/json/);
      expect(response.json()).toMatchObject({ error: { code: 'not_found' } });
    }
  });
});

describe('without a web build', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp(sqlite);
  });
  afterAll(async () => {
    await t.close();
  });

  it('answers pages with a 503 that says how to build', async () => {
    for (const url of ['/', '/feed']) {
      const response = await send(t.app, 'GET', url);
      expect(response.statusCode).toBe(503);
      expect(response.headers['content-type']).toMatch(/^text\/plain/);
      expect(response.body).toMatch(/not been built/);
      expect(response.body).toMatch(/npm run build/);
    }
  });

  it('still serves the API', async () => {
    expect((await send(t.app, 'GET', '/api/health')).json()).toEqual({ status: 'ok' });
    expect((await send(t.app, 'GET', '/api/unknown')).statusCode).toBe(404);
  });
});
