import { STATUS_CODES } from 'node:http';
import type { Duplex } from 'node:stream';
import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import { hasZodFastifySchemaValidationErrors } from 'fastify-type-provider-zod';
import type { ErrorCode } from '../../shared/error-codes.js';
import type { ErrorBody } from '../../shared/errors.js';
import { isForeignKeyViolation } from '../db/constraint-errors.js';
import { isDatabaseUnreachable, markDatabaseUnreachable } from '../db/unreachable.js';
import { AccountDeleted, DomainError } from '../errors.js';

function send(reply: FastifyReply, status: number, body: ErrorBody['error']) {
  return reply.status(status).type('application/json; charset=utf-8').send({ error: body });
}

/** Well-known framework errors, translated into words a person can act on. */
const frameworkErrors: Record<string, { status: number; code: ErrorCode; message: string }> = {
  FST_ERR_CTP_INVALID_JSON_BODY: {
    status: 400,
    code: 'bad_request',
    message: 'The request body is not valid JSON.',
  },
  FST_ERR_CTP_EMPTY_JSON_BODY: {
    status: 400,
    code: 'bad_request',
    message: 'The request body is empty; send a JSON object.',
  },
  FST_ERR_CTP_BODY_TOO_LARGE: {
    status: 413,
    code: 'payload_too_large',
    message: 'The request body is too large.',
  },
  FST_ERR_CTP_INVALID_MEDIA_TYPE: {
    status: 415,
    code: 'unsupported_media_type',
    message: 'Send the request body as application/json.',
  },
  FST_ERR_CTP_INVALID_CONTENT_LENGTH: {
    status: 400,
    code: 'bad_request',
    message: 'The Content-Length header does not match the body.',
  },
  FST_ERR_BAD_URL: {
    status: 400,
    code: 'bad_request',
    message: 'The address contains characters that are not allowed.',
  },
  FST_ERR_MAX_PARAM_LENGTH: {
    status: 414,
    code: 'bad_request',
    message: 'Part of the address is too long.',
  },
  FST_ERR_ASYNC_CONSTRAINT: {
    status: 400,
    code: 'bad_request',
    message: 'The request is malformed.',
  },
};

/** The answer to a client error known only by its status: a generic message, never the error's own. */
export function clientErrorBody(status: number): ErrorBody['error'] {
  switch (status) {
    case 401:
      return { code: 'unauthenticated', message: 'Sign in to do that.' };
    case 403:
      return { code: 'forbidden', message: "You don't have permission to do that." };
    case 404:
      return { code: 'not_found', message: 'Not found.' };
    case 408:
      return { code: 'bad_request', message: 'The request took too long to arrive.' };
    case 409:
      return { code: 'conflict', message: 'The request conflicts with the current state.' };
    case 413:
      return { code: 'payload_too_large', message: 'The request is too large.' };
    case 415:
      return {
        code: 'unsupported_media_type',
        message: 'This type of request body is not accepted.',
      };
    case 429:
      return { code: 'rate_limited', message: 'Too many requests. Please wait and try again.' };
    case 431:
      return { code: 'bad_request', message: 'The request headers are too large.' };
    default:
      return { code: 'bad_request', message: 'The request could not be understood.' };
  }
}

/**
 * Requests Node's HTTP parser refuses before Fastify sees them (raw bytes in the request line, malformed
 * headers, headers or bodies that took too long): answered in the one shape, then the connection closed.
 * They are the client's doing, so they are logged at debug, never as errors.
 */
export function clientErrorHandler(
  this: FastifyInstance,
  error: Error & { code?: string },
  socket: Duplex,
): void {
  // A reset connection has nobody left to answer.
  if (error.code === 'ECONNRESET' || socket.destroyed) return;
  let status = 400;
  if (error.code === 'ERR_HTTP_REQUEST_TIMEOUT') status = 408;
  else if (error.code === 'HPE_HEADER_OVERFLOW') status = 431;
  this.log.debug({ err: error }, 'client error before routing');
  if (socket.writable) {
    const body = JSON.stringify({ error: clientErrorBody(status) });
    socket.write(
      `HTTP/1.1 ${status} ${STATUS_CODES[status] ?? 'Bad Request'}\r\n` +
        'Content-Type: application/json; charset=utf-8\r\n' +
        `Content-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n${body}`,
    );
  }
  socket.destroy();
}

/** Errors the router raises before any route runs (bad URL encoding, over-long path parts). */
export function frameworkErrorHandler(
  error: FastifyError,
  _request: FastifyRequest,
  reply: FastifyReply,
) {
  const known = frameworkErrors[error.code] ?? {
    status: 400,
    code: 'bad_request' as const,
    message: 'The request could not be understood.',
  };
  void send(reply, known.status, { code: known.code, message: known.message });
}

/** Writes that failed because the account making them was deleted while they were on their way. */
const madeByDeletedAccount = new WeakSet<object>();

/** DESIGN.md "Errors": one JSON shape, right status codes, never a stack trace or an internal message. */
export const errorsPlugin = fp(
  (
    app: FastifyInstance,
    options: {
      /** Whether the database answers now; asked when an unexpected failure may hide an outage. */
      databaseReachable?: () => Promise<boolean>;
      /**
       * Whether the request was made by a signed-in account that no longer exists; asked when a write
       * fails on a foreign key.
       */
      accountDeleted?: (request: FastifyRequest) => Promise<boolean>;
    },
    done: () => void,
  ) => {
    const { databaseReachable, accountDeleted } = options;
    if (accountDeleted) {
      // An account deleted after its request was let in (by its owner in another tab, or by an
      // administrator in the middle of a flood) makes the request's writes fail on their key to it: the
      // request answers as any request of a deleted account does, not as a fault of the server's.
      app.addHook('onError', async (request, _reply, error) => {
        if (isForeignKeyViolation(error) && (await accountDeleted(request).catch(() => false))) {
          madeByDeletedAccount.add(error);
        }
      });
    }
    if (databaseReachable) {
      // Runs before the handler below: an unexpected failure while the database is down is the outage's,
      // even when a library has wrapped away its cause.
      app.addHook('onError', async (_request, _reply, error) => {
        if (error instanceof DomainError || (error.statusCode ?? 500) < 500) return;
        if (isDatabaseUnreachable(error)) return;
        if (!(await databaseReachable())) markDatabaseUnreachable(error);
      });
    }
    app.setErrorHandler((error: FastifyError, request: FastifyRequest, reply: FastifyReply) => {
      let domain: Error = error;
      if (madeByDeletedAccount.has(error)) {
        request.log.info({ err: error }, 'a write of an account deleted meanwhile');
        domain = new AccountDeleted();
      }
      if (domain instanceof DomainError) {
        if (domain.headers) void reply.headers(domain.headers);
        return send(reply, domain.status, {
          code: domain.code,
          message: domain.message,
          ...(domain.fields ? { fields: domain.fields } : {}),
        });
      }
      if (isDatabaseUnreachable(error)) {
        // DESIGN.md "Bounded by default": a database outage is a temporary 503, not a fault of ours to hide.
        request.log.warn({ err: error }, 'database unreachable');
        void reply.header('retry-after', '5');
        return send(reply, 503, {
          code: 'unavailable',
          message: 'The service is briefly unavailable. Please try again in a moment.',
        });
      }
      if (hasZodFastifySchemaValidationErrors(error)) {
        const fields: Record<string, string> = {};
        for (const issue of error.validation) {
          const key =
            issue.instancePath.split('/').filter(Boolean)[0] ??
            error.validationContext ??
            'request';
          fields[key] ??= issue.message ?? 'This value is not valid.';
        }
        const where = error.validationContext === 'body' ? 'form' : 'address';
        return send(reply, 400, {
          code: 'validation_failed',
          message: `Some ${where} fields need attention.`,
          fields,
        });
      }
      const known = frameworkErrors[error.code];
      if (known) return send(reply, known.status, { code: known.code, message: known.message });
      if (error.statusCode === 429) {
        return send(reply, 429, { code: 'rate_limited', message: error.message });
      }
      const status = error.statusCode ?? 500;
      // An error that carries a 4xx status (the framework's, a plugin's, a parser's, a client that went
      // away mid-body) is the client's doing, whatever its code: answered as such, logged at info.
      if (Number.isInteger(status) && status >= 400 && status < 500) {
        request.log.info({ err: error }, 'client error');
        return send(reply, status, clientErrorBody(status));
      }
      request.log.error({ err: error }, 'request failed');
      return send(reply, 500, {
        code: 'internal',
        message: 'Something went wrong on our side. Please try again.',
      });
    });
    done();
  },
  { name: 'errors' },
);
