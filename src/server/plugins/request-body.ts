import { Transform } from 'node:stream';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import { limits } from '../../shared/limits.js';

/** A body that did not arrive in time or grew past its limit: the client's doing, with its status. */
class BodyRefused extends Error {
  constructor(
    readonly statusCode: 408 | 413,
    readonly code: string,
    message: string,
  ) {
    super(message);
  }
}

const hasBody = (request: FastifyRequest) =>
  request.headers['transfer-encoding'] !== undefined ||
  (request.headers['content-length'] !== undefined && request.headers['content-length'] !== '0');

/**
 * Bounds every body that is not an upload in time and size: JSON is small, so it must arrive within
 * `jsonBodyMs` and within `limits.jsonBodyBytes`, even on routes whose limit is set for uploads. Uploads
 * (multipart) are read by their routes and bounded by the server's whole-request deadline.
 */
export const requestBodyPlugin = fp(
  (app: FastifyInstance, { jsonBodyMs }: { jsonBodyMs: number }, done: () => void) => {
    app.addHook('preParsing', (request, reply, payload, next) => {
      const type = request.headers['content-type'] ?? '';
      if (!hasBody(request) || /^multipart\//i.test(type)) {
        next(null, payload);
        return;
      }
      const declared = request.headers['content-length'];
      if (Number(declared) > limits.jsonBodyBytes) {
        void reply.header('connection', 'close');
        next(new BodyRefused(413, 'BODY_TOO_LARGE', 'The request body is too large.'));
        return;
      }
      // Arrived whole with the request (as small JSON nearly always does): within its declared length, which
      // Node's parser holds it to, and read without waiting. There is nothing left to count or time.
      if (
        declared !== undefined &&
        request.headers['transfer-encoding'] === undefined &&
        payload.readableLength === Number(declared)
      ) {
        next(null, payload);
        return;
      }
      const refuse = (error: BodyRefused) => {
        clearTimeout(timer);
        // The rest of the body is never read: the connection cannot carry another request.
        void reply.header('connection', 'close');
        payload.unpipe(bounded);
        bounded.destroy(error);
      };
      let received = 0;
      const bounded: Transform & { receivedEncodedLength?: number } = new Transform({
        transform(chunk: Buffer, _encoding, callback) {
          received += chunk.length;
          bounded.receivedEncodedLength = received;
          if (received > limits.jsonBodyBytes) {
            refuse(new BodyRefused(413, 'BODY_TOO_LARGE', 'The request body is too large.'));
            callback();
            return;
          }
          callback(null, chunk);
        },
      });
      const timer = setTimeout(() => {
        refuse(new BodyRefused(408, 'BODY_TIMEOUT', 'The request body took too long to arrive.'));
      }, jsonBodyMs);
      bounded.once('close', () => clearTimeout(timer));
      // A body nobody reads (a 415 answered before parsing) is not timed once the answer has gone out.
      reply.raw.once('close', () => clearTimeout(timer));
      // The parser, when it reads the body, listens for the error itself; unread, it has nowhere to go.
      bounded.on('error', () => undefined);
      // A client that goes away mid-body ends the parse with its error (a 4xx: the client's doing).
      payload.once('error', (error) => {
        clearTimeout(timer);
        bounded.destroy(error);
      });
      payload.pipe(bounded);
      next(null, bounded);
    });
    // An answer given before its body arrived (401, 403, 429 to an upload) closes the connection: Node
    // would otherwise read and drop the rest for as long as the client cares to trickle it.
    app.addHook('onSend', (request, reply, payload, next) => {
      // Only a real socket says `false`; injected requests (tests) leave it unset.
      const complete: unknown = request.raw.complete;
      if (complete === false) void reply.header('connection', 'close');
      next(null, payload);
    });
    done();
  },
  { name: 'request-body' },
);
