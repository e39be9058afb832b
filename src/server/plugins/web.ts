import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import fastifyStatic from '@fastify/static';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import { pageRoutes, routePreloadsFile, type RoutePreloads } from '../../shared/route-preloads.js';
import { renderIndex, type PageMetaService } from '../modules/pages/page-meta.js';
import { webManifest } from './web-manifest.js';

const immutable = 'public, max-age=31536000, immutable';

const assetAddress = /^\/assets\/[\w.-]+\.js$/;

/**
 * The build's `route-preloads.json` (scripts/vite-route-preloads.ts): each page's route scripts. A build
 * without it (or with anything else in it) preloads none, and the pages work as before.
 */
export function readRoutePreloads(webDir: string): RoutePreloads {
  const file = path.join(webDir, routePreloadsFile);
  if (!existsSync(file)) return {};
  let parsed: unknown;
  try {
    parsed = JSON.parse(readFileSync(file, 'utf8'));
  } catch {
    return {};
  }
  const preloads: RoutePreloads = {};
  if (typeof parsed !== 'object' || parsed === null) return preloads;
  for (const route of pageRoutes) {
    const files: unknown = (parsed as Record<string, unknown>)[route];
    if (
      Array.isArray(files) &&
      files.every((href) => typeof href === 'string' && assetAddress.test(href))
    ) {
      preloads[route] = files as string[];
    }
  }
  return preloads;
}

const robots = `User-agent: *
Disallow: /api/
Disallow: /settings/
Disallow: /*/edit-profile
Disallow: /signout
Disallow: /logout
Disallow: /reset-password
`;

/**
 * Serves the built web app from the root path (spec §9): hashed assets cached for a year, index.html
 * never cached, client routes fall back to index.html — with the page's own status and head tags for
 * profiles — and unknown /api paths get a JSON 404. Assets go precompressed; the page itself is
 * compressed per answer by the compression plugin.
 */
export const webPlugin = fp(
  async (
    app: FastifyInstance,
    { webDir, pages, siteName }: { webDir: string; pages: PageMetaService; siteName: string },
  ) => {
    const indexFile = path.join(webDir, 'index.html');
    const index = existsSync(indexFile) ? readFileSync(indexFile, 'utf8') : null;
    const routeScripts = readRoutePreloads(webDir);
    if (index !== null) {
      await app.register(fastifyStatic, {
        root: webDir,
        prefix: '/',
        wildcard: false,
        index: false,
        cacheControl: false,
        // The build writes `.br` and `.gz` next to each text asset that shrinks (ADR 0024): they are
        // chosen by Accept-Encoding with `Vary: Accept-Encoding`, never served by their own names. Source
        // maps are kept out of the build; one left by an older build is not served either.
        preCompressed: true,
        globIgnore: ['**/*.br', '**/*.gz', '**/*.map'],
        setHeaders: (response, file) => {
          // With a precompressed copy chosen, `file` is that copy: sw.js.br is still the worker script.
          const relative = path.relative(webDir, file).replace(/\.(?:br|gz)$/, '');
          // index.html names the current hashed assets: a cached copy would load a previous release.
          let cacheControl = 'public, max-age=3600';
          if (relative.startsWith(`assets${path.sep}`)) cacheControl = immutable;
          else if (relative === 'index.html') cacheControl = 'no-cache';
          // The service worker: browsers check it for updates on each visit, which a cached copy would skip.
          else if (relative === 'sw.js') cacheControl = 'no-cache';
          void response.header('cache-control', cacheControl);
        },
      });
    }

    app.get('/robots.txt', (_request, reply) =>
      reply
        .type('text/plain; charset=utf-8')
        .header('cache-control', 'public, max-age=3600')
        .send(robots),
    );
    if (index !== null) {
      const manifest = JSON.stringify(webManifest(siteName));
      app.get('/manifest.webmanifest', (_request, reply) =>
        reply
          .type('application/manifest+json; charset=utf-8')
          .header('cache-control', 'public, max-age=3600')
          .send(manifest),
      );
    }
    if (index !== null && !existsSync(path.join(webDir, 'favicon.ico'))) {
      app.get('/favicon.ico', (_request, reply) => reply.redirect('/favicon.svg', 301));
    }

    const sendPage = async (request: FastifyRequest, reply: FastifyReply, pathname: string) => {
      if (index === null) {
        return reply
          .status(503)
          .type('text/plain; charset=utf-8')
          .send(
            'The web app has not been built yet. Run `npm run build` (npm start does this for you).',
          );
      }
      // The viewer is looked up only where a preload depends on who asks: the feed, a post, a profile.
      const search = request.url.slice(pathname.length);
      const meta = await pages.forPath(pathname, () => request.viewer(), search);
      if (meta.redirect) {
        return reply.redirect(`${meta.redirect}${search}`, meta.status);
      }
      return reply
        .status(meta.status)
        .type('text/html; charset=utf-8')
        .header('cache-control', 'no-cache')
        .send(renderIndex(index, meta, siteName, routeScripts));
    };

    app.setNotFoundHandler(async (request: FastifyRequest, reply: FastifyReply) => {
      const pathname = request.url.split('?')[0] ?? '/';
      if (pathname.startsWith('/api/') || pathname === '/api') {
        return reply.status(404).send({
          error: {
            code: 'not_found',
            message: `There is no API at ${request.method} ${pathname}.`,
          },
        });
      }
      // Media addresses are never pages: a missing, hidden or malformed one is a plain JSON 404.
      if (pathname.startsWith('/media/') || pathname === '/media') {
        return reply.status(404).send({
          error: { code: 'not_found', message: 'There is no such file.' },
        });
      }
      const looksLikeFile = /\.[a-z0-9]{1,8}$/i.test(pathname);
      if ((request.method === 'GET' || request.method === 'HEAD') && !looksLikeFile) {
        // Client routes: the app's router decides what the path shows.
        return sendPage(request, reply, pathname);
      }
      return reply.status(404).type('text/plain; charset=utf-8').send('Not found.');
    });
  },
  { name: 'web' },
);
