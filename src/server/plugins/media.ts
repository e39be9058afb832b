import { mkdir } from 'node:fs/promises';
import fastifyStatic from '@fastify/static';
import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import { LocalStorage, type MediaStorage } from '../media/storage.js';

/**
 * Serves locally stored media at /media/… Keys are unique per upload, so files are cached for a year;
 * the type comes from the server-chosen extension and `nosniff` is set on every response.
 */
export const mediaPlugin = fp(
  async (app: FastifyInstance, { storage }: { storage: MediaStorage }) => {
    if (!(storage instanceof LocalStorage)) return;
    await mkdir(storage.root, { recursive: true });
    await app.register(fastifyStatic, {
      root: storage.root,
      prefix: '/media/',
      decorateReply: false,
      index: false,
      dotfiles: 'deny',
      cacheControl: false,
      setHeaders: (response) => {
        void response.header('cache-control', 'public, max-age=31536000, immutable');
        void response.header('x-content-type-options', 'nosniff');
      },
    });
  },
  { name: 'media' },
);
