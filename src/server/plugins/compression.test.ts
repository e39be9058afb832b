import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { brotliCompressSync, brotliDecompressSync, gunzipSync, gzipSync } from 'node:zlib';
import type { LightMyRequestResponse } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  createTestApp,
  databaseTargets,
  send,
  signUp,
  testOrigin,
  type TestApp,
} from '../test/harness.js';
import { compressBody } from './compression.js';
import { negotiateEncoding } from './compression-negotiation.js';

/** The body as the client reads it, whichever coding it came in. */
function decoded(response: LightMyRequestResponse): string {
  const encoding = response.headers['content-encoding'];
  if (encoding === 'br') return brotliDecompressSync(response.rawPayload).toString();
  if (encoding === 'gzip') return gunzipSync(response.rawPayload).toString();
  expect(encoding).toBeUndefined();
  return response.body;
}

function varies(response: LightMyRequestResponse): boolean {
  return (response.headers.vary ?? '')
    .toLowerCase()
    .split(',')
    .some((token) => token.trim() === 'accept-encoding');
}

/** What each Accept-Encoding gets: `null` is the body as it is. */
const matrix: [string | undefined, 'br' | 'gzip' | null][] = [
  [undefined, null],
  ['', null],
  ['identity', null],
  ['identity;q=0', null],
  ['br', 'br'],
  ['gzip', 'gzip'],
  ['GZIP', 'gzip'],
  ['x-gzip', 'gzip'],
  ['deflate', null],
  ['gzip, deflate, br, zstd', 'br'],
  ['br;q=0', null],
  ['br;q=0, gzip', 'gzip'],
  ['br;q=0.4, gzip;q=0.5', 'gzip'],
  ['gzip;q=1.0, br;q=0.999', 'gzip'],
  ['br ; q = 0.8 , gzip;q=0.8', 'br'],
  ['*', 'br'],
  ['*;q=0', null],
  ['*, br;q=0', 'gzip'],
  ['*;q=0, gzip', 'gzip'],
  ['br;q=2', null],
  ['br;q=abc, gzip;q=-1', null],
  ['br;q=, gzip;level=9', 'gzip'],
  [';;;,,, =q', null],
  ['ü, 🙂;q=1', null],
  ['a,'.repeat(4000), null],
];

describe('negotiating the content coding (RFC 9110 §12.5.3)', () => {
  it.each(matrix)('Accept-Encoding %j gets %s', (header, expected) => {
    expect(negotiateEncoding(header)).toBe(expected);
    // A second read of the same header (answered from the cache) agrees.
    expect(negotiateEncoding(header)).toBe(expected);
  });

  it('reads a header repeated on several lines as one list', () => {
    expect(negotiateEncoding(['br;q=0', 'gzip'])).toBe('gzip');
  });
});

describe('compressing a body', () => {
  it.each([1_500, 64 * 1024, 300_000])(
    'gives back the same %i bytes in either coding, inline or on the thread pool',
    async (size) => {
      const body = Buffer.from(
        JSON.stringify(Array.from({ length: size }, (_, i) => i % 97)).slice(0, size),
      );
      const br = await compressBody('br', body);
      const gz = await compressBody('gzip', body);
      expect(br.length).toBeLessThan(body.length);
      expect(gz.length).toBeLessThan(body.length);
      expect(brotliDecompressSync(br).equals(body)).toBe(true);
      expect(gunzipSync(gz).equals(body)).toBe(true);
    },
  );
});

const sqlite = databaseTargets[0];
if (!sqlite) throw new Error('no database target');

const page = `<!doctype html><html><head><title>Hearth</title><meta name="description" content="${'A community. '.repeat(120)}"></head><body><div id="root"></div></body></html>`;
const appJs = `export const words = ${JSON.stringify('hearth '.repeat(800))};\n`;
const smallJs = 'console.log(1);\n';
const png = Buffer.alloc(4096, 7);

describe('compressed answers', () => {
  let t: TestApp;
  let webDir: string;
  beforeAll(async () => {
    webDir = mkdtempSync(path.join(tmpdir(), 'hearth-web-'));
    mkdirSync(path.join(webDir, 'assets'));
    writeFileSync(path.join(webDir, 'index.html'), page);
    const asset = path.join(webDir, 'assets', 'app-abc123.js');
    writeFileSync(asset, appJs);
    // What the build writes: a smaller copy per coding, told apart by its content here.
    writeFileSync(`${asset}.br`, brotliCompressSync(appJs));
    writeFileSync(`${asset}.gz`, gzipSync(appJs));
    writeFileSync(`${asset}.map`, '{"version":3,"sources":["../../src/web/secret.ts"]}');
    writeFileSync(path.join(webDir, 'assets', 'small-abc123.js'), smallJs);
    writeFileSync(path.join(webDir, 'assets', 'photo-abc123.png'), png);
    t = await createTestApp(sqlite, { WEB_DIR: webDir });
  });
  afterAll(async () => {
    await t.close();
    rmSync(webDir, { recursive: true, force: true });
  });

  const get = (url: string, acceptEncoding?: string, headers: Record<string, string> = {}) =>
    send(t.app, 'GET', url, undefined, {
      headers: {
        ...(acceptEncoding === undefined ? {} : { 'accept-encoding': acceptEncoding }),
        ...headers,
      },
    });

  it.each(matrix)('answers the page to Accept-Encoding %j in %s', async (header, expected) => {
    const response = await get('/feed', header);
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-encoding']).toBe(expected ?? undefined);
    expect(response.headers['content-type']).toMatch(/^text\/html/);
    expect(varies(response)).toBe(true);
    expect(Number(response.headers['content-length'])).toBe(response.rawPayload.length);
    expect(decoded(response)).toContain('<div id="root"></div>');
    if (expected !== null) expect(response.rawPayload.length).toBeLessThan(page.length / 4);
  });

  it('keeps the security headers and the cache policy on a compressed page', async () => {
    const response = await get('/feed', 'br');
    expect(response.headers['content-encoding']).toBe('br');
    expect(response.headers['content-security-policy']).toContain("script-src 'self'");
    expect(response.headers['x-content-type-options']).toBe('nosniff');
    expect(response.headers['x-frame-options']).toBe('DENY');
    expect(response.headers['cache-control']).toBe('no-cache');
  });

  it('answers HEAD with the uncompressed headers and no body', async () => {
    const identity = await get('/feed');
    for (const url of ['/feed', '/assets/app-abc123.js']) {
      const response = await t.app.inject({
        method: 'HEAD',
        url,
        headers: { 'accept-encoding': 'br' },
      });
      expect(response.statusCode, url).toBe(200);
      expect(response.body, url).toBe('');
      if (url === '/feed') {
        expect(response.headers['content-encoding']).toBeUndefined();
        expect(response.headers['content-length']).toBe(identity.headers['content-length']);
      }
    }
  });

  it('sends small answers as they are', async () => {
    const response = await get('/api/health', 'br, gzip');
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-encoding']).toBeUndefined();
  });

  it.each([
    ['br', 'br'],
    ['gzip', 'gzip'],
    ['gzip, deflate, br', 'br'],
    ['br;q=0, gzip', 'gzip'],
    [undefined, undefined],
    ['identity', undefined],
    ['br;q=abc', undefined],
  ])('serves the built asset precompressed to %j: %s', async (header, expected) => {
    const response = await get('/assets/app-abc123.js', header);
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-encoding']).toBe(expected);
    expect(response.headers['content-type']).toMatch(/^text\/javascript|^application\/javascript/);
    expect(response.headers['cache-control']).toMatch(
      /max-age=31536000.*immutable|immutable.*max-age/,
    );
    expect(response.headers['x-content-type-options']).toBe('nosniff');
    expect(varies(response)).toBe(true);
    expect(decoded(response)).toBe(appJs);
  });

  it('revalidates a precompressed asset with 304', async () => {
    const first = await get('/assets/app-abc123.js', 'br');
    const etag = String(first.headers.etag);
    expect(etag).not.toBe('undefined');
    const again = await get('/assets/app-abc123.js', 'br', { 'if-none-match': etag });
    expect(again.statusCode).toBe(304);
    expect(again.rawPayload.length).toBe(0);
    const since = await get('/assets/app-abc123.js', 'gzip', {
      'if-modified-since': String(first.headers['last-modified']),
    });
    expect(since.statusCode).toBe(304);
  });

  it('serves files without a compressed copy as they are', async () => {
    const small = await get('/assets/small-abc123.js', 'br');
    expect(small.statusCode).toBe(200);
    expect(small.headers['content-encoding']).toBeUndefined();
    expect(small.body).toBe(smallJs);
    const image = await get('/assets/photo-abc123.png', 'br, gzip');
    expect(image.statusCode).toBe(200);
    expect(image.headers['content-encoding']).toBeUndefined();
    expect(image.rawPayload.equals(png)).toBe(true);
  });

  it('never serves source maps or the compressed copies by their own names', async () => {
    for (const url of [
      '/assets/app-abc123.js.map',
      '/assets/app-abc123.js.br',
      '/assets/app-abc123.js.gz',
      '/assets/missing.js.map',
    ]) {
      const response = await get(url, 'br');
      expect(response.statusCode, url).toBe(404);
      expect(response.body, url).not.toContain('secret.ts');
    }
  });
});

describe.each(databaseTargets)('compressed API answers on $name', (target) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp(target);
    const author = await signUp(t.app);
    for (let i = 0; i < 6; i += 1) {
      const body = `Post ${i}: the quiet river runs past the market garden in the evening light.`;
      const response = await send(t.app, 'POST', '/api/posts', { body }, { cookie: author.cookie });
      expect(response.statusCode).toBe(201);
    }
  });
  afterAll(async () => {
    await t.close();
  });

  it.each(matrix)('answers the feed to Accept-Encoding %j in %s', async (header, expected) => {
    const identity = await send(t.app, 'GET', '/api/feed?tab=everyone');
    expect(identity.body.length).toBeGreaterThan(1024);
    const response = await send(t.app, 'GET', '/api/feed?tab=everyone', undefined, {
      headers: header === undefined ? {} : { 'accept-encoding': header },
    });
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-type']).toMatch(/^application\/json/);
    expect(response.headers['content-encoding']).toBe(expected ?? undefined);
    expect(varies(response)).toBe(true);
    expect(JSON.parse(decoded(response))).toEqual(identity.json());
  });

  it('answers bad input in the one error shape, uncompressed when small', async () => {
    const response = await send(t.app, 'GET', '/api/feed?tab=nowhere', undefined, {
      headers: { 'accept-encoding': 'br' },
      origin: testOrigin,
    });
    expect(response.statusCode).toBe(400);
    expect(response.headers['content-encoding']).toBeUndefined();
    expect(response.json<{ error: { code: string } }>().error.code).toBeTruthy();
  });
});
