import { gunzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { endpointList } from '../../shared/contract/index.js';
import { appVersion, type OpenApiDocument } from '../http/openapi.js';
import { createTestApp, databaseTargets, send, type TestApp } from '../test/harness.js';

/** The directives of a Content-Security-Policy header, by name. */
function csp(header: unknown): Map<string, string[]> {
  const directives = new Map<string, string[]>();
  for (const part of String(header).split(';')) {
    const [name, ...values] = part.trim().split(/\s+/);
    if (name) directives.set(name.toLowerCase(), values);
  }
  return directives;
}

const [sqlite] = databaseTargets;

describe('the API reference', () => {
  let t: TestApp;
  beforeAll(async () => {
    if (!sqlite) throw new Error('no SQLite target');
    t = await createTestApp(sqlite);
  });
  afterAll(async () => {
    await t.close();
  });

  it('serves the OpenAPI document as public, cacheable JSON', async () => {
    const response = await send(t.app, 'GET', '/api/openapi.json');
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-type']).toBe('application/json; charset=utf-8');
    expect(response.headers['cache-control']).toBe('public, max-age=300');
    expect(response.headers['access-control-allow-origin']).toBe('*');
    const document = response.json<OpenApiDocument>();
    expect(document.openapi).toBe('3.1.1');
    expect(document.info.title).toBe('Hearth Test API');
    expect(document.info.version).toBe(appVersion());
    expect(document.components.securitySchemes.session?.name).toBe('hearth.session_token');
    const ids = Object.values(document.paths).flatMap((item) =>
      Object.values(item).map((operation) => operation.operationId),
    );
    expect(ids.sort()).toEqual(endpointList.map((endpoint) => endpoint.id).sort());
  });

  it('serves the same bytes every time, and a 304 for a known entity tag', async () => {
    const first = await send(t.app, 'GET', '/api/openapi.json');
    const second = await send(t.app, 'GET', '/api/openapi.json');
    expect(second.body).toBe(first.body);
    const etag = String(first.headers.etag);
    expect(etag).toMatch(/^"[\w-]+"$/);
    const cached = await send(t.app, 'GET', '/api/openapi.json', undefined, {
      headers: { 'if-none-match': `"other", ${etag}` },
    });
    expect(cached.statusCode).toBe(304);
    expect(cached.body).toBe('');
    const stale = await send(t.app, 'GET', '/api/openapi.json', undefined, {
      headers: { 'if-none-match': '"other"' },
    });
    expect(stale.statusCode).toBe(200);
  });

  it('names the __Host- cookie when the instance runs over https', async () => {
    if (!sqlite) throw new Error('no SQLite target');
    const secure = await createTestApp(sqlite, { PUBLIC_URL: 'https://hearth.test' });
    try {
      const response = await send(secure.app, 'GET', '/api/openapi.json');
      const document = response.json<OpenApiDocument>();
      expect(document.components.securitySchemes.session?.name).toBe('__Host-hearth.session_token');
    } finally {
      await secure.close();
    }
  });

  it('serves a page of markup and script files only, under the strict CSP', async () => {
    const response = await send(t.app, 'GET', '/api/docs');
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-type']).toBe('text/html; charset=utf-8');
    expect(response.headers['cache-control']).toBe('no-cache');
    const policy = csp(response.headers['content-security-policy']);
    expect(policy.get('script-src')).toEqual(["'self'"]);
    expect(policy.get('style-src')).toEqual(["'self'"]);
    expect(policy.get('default-src')).toEqual(["'self'"]);
    const html = response.body;
    expect(html).toContain('<title>Hearth Test API reference</title>');
    // No inline script or style: every script has a src, and nothing carries a style attribute.
    expect(html).not.toMatch(/<script(?![^>]*\bsrc=)[^>]*>/);
    expect(html).not.toMatch(/<style|\sstyle=/);
    const sources = [...html.matchAll(/(?:src|href)="(\/api\/docs\/[^"]+)"/g)].map((m) => m[1]);
    expect(sources).toHaveLength(3);
    for (const source of sources) {
      const asset = await send(t.app, 'GET', source ?? '');
      expect(asset.statusCode, source).toBe(200);
      expect(asset.headers['cache-control']).toBe('public, max-age=31536000, immutable');
      expect(asset.headers['content-type']).toMatch(/^text\/(css|javascript); charset=utf-8$/);
    }
  });

  it('escapes the instance name in the page', async () => {
    if (!sqlite) throw new Error('no SQLite target');
    const odd = await createTestApp(sqlite, { INSTANCE_NAME: '<b>Tom & "Jerry"</b>' });
    try {
      const response = await send(odd.app, 'GET', '/api/docs');
      expect(response.body).toContain(
        '<title>&lt;b&gt;Tom &amp; &quot;Jerry&quot;&lt;/b&gt; API reference</title>',
      );
    } finally {
      await odd.close();
    }
  });

  it('serves Swagger UI from swagger-ui-dist, gzipped when the client takes it', async () => {
    const page = await send(t.app, 'GET', '/api/docs');
    const bundle = /src="(\/api\/docs\/swagger-ui-[\d.]+\/swagger-ui-bundle\.js)"/.exec(
      page.body,
    )?.[1];
    expect(bundle).toBeDefined();
    const plain = await send(t.app, 'GET', bundle ?? '');
    expect(plain.headers['content-encoding']).toBeUndefined();
    expect(plain.body).toContain('SwaggerUIBundle');
    const zipped = await send(t.app, 'GET', bundle ?? '', undefined, {
      headers: { 'accept-encoding': 'gzip, deflate, br' },
    });
    expect(zipped.headers['content-encoding']).toBe('gzip');
    expect(zipped.headers.vary).toBe('accept-encoding');
    expect(zipped.rawPayload.length).toBeLessThan(plain.rawPayload.length / 2);
    expect(gunzipSync(zipped.rawPayload).equals(plain.rawPayload)).toBe(true);
  });

  it('runs its own start-up script, which renders the document', async () => {
    const page = await send(t.app, 'GET', '/api/docs');
    const init = /src="(\/api\/docs\/docs-[0-9a-f]+\.js)"/.exec(page.body)?.[1];
    const script = await send(t.app, 'GET', init ?? '');
    expect(script.statusCode).toBe(200);
    expect(script.body).toContain('"/api/openapi.json"');
    expect(script.body).toContain('validatorUrl: null');
  });

  it('redirects a trailing slash and answers unknown files with the JSON 404', async () => {
    const slash = await send(t.app, 'GET', '/api/docs/');
    expect(slash.statusCode).toBe(301);
    expect(slash.headers.location).toBe('/api/docs');
    const missing = await send(t.app, 'GET', '/api/docs/swagger-ui-0.0.1/swagger-ui-bundle.js');
    expect(missing.statusCode).toBe(404);
    expect(missing.json()).toMatchObject({ error: { code: 'not_found' } });
  });
});
