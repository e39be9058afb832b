import { existsSync } from 'node:fs';
import path from 'node:path';
import fastifyStatic from '@fastify/static';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';

const immutable = 'public, max-age=31536000, immutable';

/**
 * Serves the built web app from the root path (spec §9): hashed assets cached for a year, index.html
 * never cached, client routes fall back to index.html, unknown /api paths get a JSON 404.
 */
export const webPlugin = fp(
  async (app: FastifyInstance, { webDir }: { webDir: string }) => {
    const built = existsSync(path.join(webDir, 'index.html'));
    if (built) {
      await app.register(fastifyStatic, {
        root: webDir,
        prefix: '/',
        wildcard: false,
        index: false,
        cacheControl: false,
        setHeaders: (response, file) => {
          const relative = path.relative(webDir, file);
          // index.html names the current hashed assets: a cached copy would load a previous release.
          let cacheControl = 'public, max-age=3600';
          if (relative.startsWith(`assets${path.sep}`)) cacheControl = immutable;
          else if (relative === 'index.html') cacheControl = 'no-cache';
          void response.header('cache-control', cacheControl);
        },
      });
    }

    const sendIndex = (reply: FastifyReply, status: number) => {
      if (!built) {
        return reply
          .status(503)
          .type('text/plain; charset=utf-8')
          .send(
            'The web app has not been built yet. Run `npm run build` (npm start does this for you).',
          );
      }
      return reply
        .status(status)
        .header('cache-control', 'no-cache')
        .sendFile('index.html', webDir);
    };

    app.setNotFoundHandler((request: FastifyRequest, reply: FastifyReply) => {
      const pathname = request.url.split('?')[0] ?? '/';
      if (pathname.startsWith('/api/') || pathname === '/api') {
        return reply.status(404).send({
          error: {
            code: 'not_found',
            message: `There is no API at ${request.method} ${pathname}.`,
          },
        });
      }
      const looksLikeFile = /\.[a-z0-9]{1,8}$/i.test(pathname);
      if ((request.method === 'GET' || request.method === 'HEAD') && !looksLikeFile) {
        // Client routes: the app's router decides what the path shows.
        return sendIndex(reply, 200);
      }
      return reply.status(404).type('text/plain; charset=utf-8').send('Not found.');
    });
  },
  { name: 'web' },
);
