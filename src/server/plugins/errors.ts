import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import { hasZodFastifySchemaValidationErrors } from 'fastify-type-provider-zod';
import type { ErrorBody, ErrorCode } from '../../shared/errors.js';
import { DomainError } from '../errors.js';

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

/** DESIGN.md "Errors": one JSON shape, right status codes, never a stack trace or an internal message. */
export const errorsPlugin = fp(
  (app: FastifyInstance, _options: object, done: () => void) => {
    app.setErrorHandler((error: FastifyError, request: FastifyRequest, reply: FastifyReply) => {
      if (error instanceof DomainError) {
        if (error.headers) void reply.headers(error.headers);
        return send(reply, error.status, {
          code: error.code,
          message: error.message,
          ...(error.fields ? { fields: error.fields } : {}),
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
      // Only the framework's own 4xx errors are the client's doing; anything else unexpected is ours.
      const code: unknown = error.code;
      if (status >= 400 && status < 500 && typeof code === 'string' && code.startsWith('FST_')) {
        request.log.info({ err: error }, 'client error');
        return send(reply, status, {
          code: status === 404 ? 'not_found' : 'bad_request',
          message: 'The request could not be understood.',
        });
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
