import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { brotliCompressSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, databaseTargets, send, type TestApp } from '../test/harness.js';
import { webManifest } from './web-manifest.js';

// The manifest and the worker script do not touch the database; SQLite is enough here.
const sqlite = databaseTargets[0];
if (!sqlite) throw new Error('no database target');

describe('the web app manifest and service worker script', () => {
  let t: TestApp;
  let webDir: string;
  beforeAll(async () => {
    webDir = mkdtempSync(path.join(tmpdir(), 'hearth-pwa-'));
    mkdirSync(path.join(webDir, 'icons'));
    writeFileSync(path.join(webDir, 'index.html'), '<!doctype html><title>x</title>');
    const worker = 'self.addEventListener("fetch", () => {});\n';
    writeFileSync(path.join(webDir, 'sw.js'), worker);
    writeFileSync(path.join(webDir, 'sw.js.br'), brotliCompressSync(worker));
    writeFileSync(path.join(webDir, 'icons', 'icon-192.png'), 'png');
    t = await createTestApp(sqlite, { WEB_DIR: webDir, INSTANCE_NAME: 'Riverside Commons' });
  });
  afterAll(async () => {
    await t.close();
    rmSync(webDir, { recursive: true, force: true });
  });

  it('serves the manifest with the instance name, the scope and the icons', async () => {
    const response = await send(t.app, 'GET', '/manifest.webmanifest');
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-type']).toMatch(/^application\/manifest\+json/);
    const manifest = JSON.parse(response.body) as ReturnType<typeof webManifest>;
    expect(manifest.name).toBe('Riverside Commons');
    expect(manifest.short_name).toBe('Riverside');
    expect(manifest).toMatchObject({ start_url: '/', scope: '/', display: 'standalone' });
    expect(manifest.icons.map((icon) => `${icon.sizes} ${icon.purpose}`)).toEqual([
      '192x192 any',
      '512x512 any',
      '512x512 maskable',
    ]);
  });

  it('serves sw.js never cached, so a new release is found on the next visit', async () => {
    for (const encoding of ['', 'br, gzip']) {
      const response = await send(t.app, 'GET', '/sw.js', undefined, {
        headers: { 'accept-encoding': encoding },
      });
      expect(response.statusCode, encoding).toBe(200);
      expect(response.headers['content-type'], encoding).toMatch(/javascript/);
      expect(response.headers['cache-control'], encoding).toBe('no-cache');
      // The second round must take the precompressed copy, or it would not test that path.
      expect(response.headers['content-encoding'], encoding).toBe(encoding ? 'br' : undefined);
    }
  });

  it('keeps the other public files cached for an hour', async () => {
    const response = await send(t.app, 'GET', '/icons/icon-192.png');
    expect(response.headers['cache-control']).toBe('public, max-age=3600');
  });
});

describe('webManifest', () => {
  it.each([
    ['Hearth', 'Hearth'],
    ['Twelve chars', 'Twelve chars'],
    ['The Village Green', 'The Village'],
    ['Kaffeeklatschrunde', 'Kaffeeklatsc'],
    ['🔥🔥🔥🔥🔥🔥🔥🔥🔥🔥🔥🔥🔥', '🔥🔥🔥🔥🔥🔥🔥🔥🔥🔥🔥🔥'],
    ['Café 👩‍👩‍👧 families of Ålesund', 'Café 👩‍👩‍👧'],
  ])('shortens %j to %j for the home screen', (name, short) => {
    expect(webManifest(name).short_name).toBe(short);
  });
});
