import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { promisify } from 'node:util';
import { gzip } from 'node:zlib';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import { z } from 'zod';
import { apiDocsPath, appVersion, buildOpenApiDocument, openApiPath } from '../http/openapi.js';

const gzipAsync = promisify(gzip);
const immutable = 'public, max-age=31536000, immutable';

/** Where swagger-ui-dist is installed, and its version (which names its files' folder, for caching). */
function swaggerUiDist(): { dir: string; version: string } {
  const manifest = createRequire(import.meta.url).resolve('swagger-ui-dist/package.json');
  const { version } = z
    .object({ version: z.string() })
    .parse(JSON.parse(readFileSync(manifest, 'utf8')));
  return { dir: path.dirname(manifest), version };
}

/**
 * Our start-up script: the CSP allows no inline script, so it is a file of its own. It renders the
 * document with Swagger UI's base layout (no top bar to load other documents) and no call to the online
 * validator, which would leave this site.
 */
const initScript = `'use strict';
window.ui = window.SwaggerUIBundle({
  url: ${JSON.stringify(openApiPath)},
  dom_id: '#swagger-ui',
  layout: 'BaseLayout',
  presets: [window.SwaggerUIBundle.presets.apis],
  deepLinking: true,
  docExpansion: 'list',
  defaultModelsExpandDepth: 0,
  displayOperationId: true,
  validatorUrl: null,
});
`;

const escapes: Record<string, string> = {
  '&': '&amp;',
  '<': '&lt;',
  '>': '&gt;',
  '"': '&quot;',
  "'": '&#39;',
};

function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (character) => escapes[character] ?? character);
}

interface Asset {
  type: string;
  body: Buffer;
  /** Made on first request: the bundle is 1.5 MB and most app starts never serve it. */
  gzipped?: Promise<Buffer>;
}

function acceptsGzip(request: FastifyRequest): boolean {
  return /\bgzip\b/.test(request.headers['accept-encoding'] ?? '');
}

async function sendAsset(request: FastifyRequest, reply: FastifyReply, asset: Asset) {
  void reply.type(asset.type).header('cache-control', immutable).header('vary', 'accept-encoding');
  if (!acceptsGzip(request)) return reply.send(asset.body);
  asset.gzipped ??= gzipAsync(asset.body);
  return reply.header('content-encoding', 'gzip').send(await asset.gzipped);
}

/** The document's body and an entity tag, made once per process: the document never changes while it runs. */
interface Served {
  body: string;
  etag: string;
}

/**
 * The API reference (ADR 0012): the OpenAPI 3.1 document at /api/openapi.json, and /api/docs, which
 * renders it with Swagger UI. Swagger UI's files load only on that page, from swagger-ui-dist, under the
 * app's CSP: no inline script or style, so the page is markup and two script files.
 */
export const apiDocsPlugin = fp(
  (
    app: FastifyInstance,
    { instanceName, sessionCookie }: { instanceName: string; sessionCookie: string },
    done: () => void,
  ) => {
    let served: Served | undefined;
    const document = (): Served => {
      if (!served) {
        const body = JSON.stringify(
          buildOpenApiDocument({ instanceName, version: appVersion(), sessionCookie }),
        );
        const etag = `"${createHash('sha256').update(body).digest('base64url').slice(0, 27)}"`;
        served = { body, etag };
      }
      return served;
    };

    app.get(openApiPath, (request, reply) => {
      const { body, etag } = document();
      // Public and the same for everyone: tools elsewhere (editors, client generators) may fetch it,
      // and caches may keep it briefly, checking back by entity tag.
      void reply
        .header('cache-control', 'public, max-age=300')
        .header('etag', etag)
        .header('access-control-allow-origin', '*');
      const match = request.headers['if-none-match'];
      if (match?.split(',').some((tag) => tag.trim() === etag)) return reply.code(304).send();
      return reply.type('application/json; charset=utf-8').send(body);
    });

    const dist = swaggerUiDist();
    const base = `${apiDocsPath}/swagger-ui-${dist.version}`;
    const initHash = createHash('sha256').update(initScript).digest('hex').slice(0, 12);
    const assets = new Map<string, () => Asset>([
      [`${base}/swagger-ui.css`, () => fileAsset('swagger-ui.css', 'text/css; charset=utf-8')],
      [
        `${base}/swagger-ui-bundle.js`,
        () => fileAsset('swagger-ui-bundle.js', 'text/javascript; charset=utf-8'),
      ],
      [
        `${apiDocsPath}/docs-${initHash}.js`,
        () => ({ type: 'text/javascript; charset=utf-8', body: Buffer.from(initScript) }),
      ],
    ]);
    function fileAsset(name: string, type: string): Asset {
      return { type, body: readFileSync(path.join(dist.dir, name)) };
    }
    const [styles, bundle, init] = [...assets.keys()];

    const page = `<!doctype html>
<html lang="en">
  <head>
    <meta charset="utf-8" />
    <meta name="viewport" content="width=device-width, initial-scale=1" />
    <title>${escapeHtml(instanceName)} API reference</title>
    <link rel="icon" href="/favicon.svg" type="image/svg+xml" />
    <link rel="stylesheet" href="${styles}" />
    <script src="${bundle}" defer></script>
    <script src="${init}" defer></script>
  </head>
  <body>
    <div id="swagger-ui"></div>
    <noscript>The API reference needs JavaScript. The OpenAPI document is at <a href="${openApiPath}">${openApiPath}</a>.</noscript>
  </body>
</html>
`;

    app.get(apiDocsPath, (_request, reply) =>
      // The page names the current asset files: a cached copy would ask for another release's.
      reply.type('text/html; charset=utf-8').header('cache-control', 'no-cache').send(page),
    );
    app.get(`${apiDocsPath}/`, (_request, reply) => reply.redirect(apiDocsPath, 301));
    for (const [url, load] of assets) {
      let asset: Asset | undefined;
      app.get(url, (request, reply) => sendAsset(request, reply, (asset ??= load())));
    }
    done();
  },
  { name: 'api-docs' },
);
