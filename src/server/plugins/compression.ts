import { promisify } from 'node:util';
import { brotliCompress, brotliCompressSync, constants, gzip, gzipSync } from 'node:zlib';
import type { FastifyInstance, FastifyReply } from 'fastify';
import fp from 'fastify-plugin';
import { negotiateEncoding, type ContentCoding } from './compression-negotiation.js';

/**
 * Below this a body goes as it is: the encoding's own framing and the CPU spent would cost more than the
 * bytes saved on any real link (ADR 0024).
 */
export const compressionThresholdBytes = 1024;

/** Text formats only: images, video and archives are compressed already and would only grow. */
const compressibleType =
  /^(?:text\/|image\/svg\+xml|application\/(?:[\w.-]+\+)?(?:json|xml|javascript))\b/i;

const brotli = promisify(brotliCompress);
const gzipAsync = promisify(gzip);

/**
 * Up to this size a body is compressed inline: handing it to the thread pool costs more CPU than the
 * compression itself (measured on a 10 KB feed page, about twice as much). Larger bodies go to the pool,
 * so no single answer holds the event loop for long.
 */
const inlineBytes = 64 * 1024;

/**
 * Dynamic bodies are compressed per answer, so the levels are the fast ones (ADR 0024): on a 10 KB feed
 * page brotli 3 gives the same size as brotli 4 for about 40 µs of CPU instead of 65, and a 256 KB window
 * covers any page while bounding memory. Built assets are compressed once, at build time, at the maximum.
 */
const brotliOptions = (length: number) => ({
  params: {
    [constants.BROTLI_PARAM_QUALITY]: 3,
    [constants.BROTLI_PARAM_LGWIN]: 18,
    [constants.BROTLI_PARAM_MODE]: constants.BROTLI_MODE_TEXT,
    [constants.BROTLI_PARAM_SIZE_HINT]: length,
  },
});
const gzipOptions = { level: 5 };

/** The body in the given coding: inline when small, on the thread pool when large. */
export async function compressBody(coding: ContentCoding, body: Buffer): Promise<Buffer> {
  if (body.length <= inlineBytes) {
    return coding === 'br'
      ? brotliCompressSync(body, brotliOptions(body.length))
      : gzipSync(body, gzipOptions);
  }
  return coding === 'br' ? brotli(body, brotliOptions(body.length)) : gzipAsync(body, gzipOptions);
}

function addVary(reply: FastifyReply): void {
  const current = reply.getHeader('vary');
  if (current === undefined) {
    void reply.header('vary', 'accept-encoding');
    return;
  }
  const value = Array.isArray(current) ? current.join(', ') : String(current);
  const tokens = value.split(',').map((token) => token.trim().toLowerCase());
  if (tokens.includes('accept-encoding') || tokens.includes('*')) return;
  void reply.header('vary', `${value}, accept-encoding`);
}

/**
 * Compresses HTML and JSON answers of at least 1 KB for clients that accept brotli or gzip (issue 13
 * §5). Streams (built files, which are served precompressed, media, uploads) pass untouched, and so do
 * bodies that already carry an encoding, an ETag (it names that exact representation, and its 304 path
 * must keep matching) or `Cache-Control: no-transform`. Should compression fail, the body goes
 * uncompressed.
 */
export const compressionPlugin = fp(
  (app: FastifyInstance, _options: object, done: () => void) => {
    app.addHook('onSend', (request, reply, payload, next) => {
      // Cheapest test first: most answers are small JSON and leave here. A string's length never
      // exceeds its UTF-8 size, so this never skips a body that is over the threshold.
      if (
        (typeof payload !== 'string' && !Buffer.isBuffer(payload)) ||
        payload.length < compressionThresholdBytes
      ) {
        next(null, payload);
        return;
      }
      const status = reply.statusCode;
      const contentType = reply.getHeader('content-type');
      if (
        status < 200 ||
        status === 204 ||
        status === 206 ||
        status === 304 ||
        typeof contentType !== 'string' ||
        !compressibleType.test(contentType) ||
        reply.hasHeader('content-encoding') ||
        reply.hasHeader('etag') ||
        /\bno-transform\b/i.test(String(reply.getHeader('cache-control') ?? ''))
      ) {
        next(null, payload);
        return;
      }
      // The answer now depends on Accept-Encoding, whichever coding this client gets.
      addVary(reply);
      // A HEAD answer is described as sent uncompressed, a choice the client's header allows: compressing
      // a body nobody receives would only spend CPU.
      const coding =
        request.method === 'HEAD' ? null : negotiateEncoding(request.headers['accept-encoding']);
      if (coding === null) {
        next(null, payload);
        return;
      }
      const body = typeof payload === 'string' ? Buffer.from(payload) : payload;
      compressBody(coding, body).then(
        (compressed) => {
          if (compressed.length >= body.length) {
            next(null, payload);
            return;
          }
          void reply.header('content-encoding', coding);
          reply.removeHeader('content-length');
          next(null, compressed);
        },
        (error: unknown) => {
          request.log.warn({ err: error }, 'compression failed; the answer goes uncompressed');
          next(null, payload);
        },
      );
    });
    done();
  },
  { name: 'compression' },
);
