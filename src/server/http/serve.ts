import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { z } from 'zod';
import {
  errorStatuses,
  routePath,
  type Endpoint,
  type ParsedInput,
} from '../../shared/contract/endpoint.js';
import { errorBodySchema } from '../../shared/errors.js';
import { readForm, type FormFile } from '../media/multipart.js';
import { Invalid } from '../errors.js';
import { handlersInFlight } from './in-flight.js';
import { JsonText } from './json-text.js';
import type { RequestCheck } from '../plugins/rate-limit.js';
import {
  requireActiveViewer,
  requireStaffViewer,
  requireViewer,
  type Viewer,
} from '../plugins/viewer.js';

/** What a handler is given: the input as its schemas output it, the viewer, and the raw request. */
export type EndpointCall<E extends Endpoint> = ParsedInput<E> & {
  /** Signed-in endpoints get the viewer; public ones look it up only if they need it. */
  viewer: E['access'] extends 'public' ? () => Promise<Viewer | null> : Viewer;
  /** Files of a multipart body, one per file field at most. */
  files: FormFile[];
  request: FastifyRequest;
  reply: FastifyReply;
};

/**
 * A handler returns the success body (a 204's is ignored), or that body already written by the contract's
 * serializer (`JsonText`); it may set headers on the reply first, and the status of one of the endpoint's
 * `otherResponses`.
 */
export type EndpointHandler<E extends Endpoint> = (
  call: EndpointCall<E>,
) => Promise<z.input<E['response']> | JsonText> | z.input<E['response']> | JsonText;

const formFiles = new WeakMap<FastifyRequest, FormFile[]>();

/** The body schema of each status an endpoint answers: its success, its errors, its `otherResponses`. */
export function responseSchemas(endpoint: Endpoint): Record<number, z.ZodType> {
  const response: Record<number, z.ZodType> = { [endpoint.status]: endpoint.response };
  for (const status of errorStatuses(endpoint)) response[status] = errorBodySchema;
  for (const [status, schema] of Object.entries(endpoint.otherResponses ?? {})) {
    const code = Number(status);
    const error = response[code];
    // The error handler may still answer the same status with the error shape.
    response[code] = error ? z.union([schema, error]) : schema;
  }
  return response;
}

/**
 * Registers the route of one contract endpoint. Before the handler runs, in this order: the access rule,
 * the endpoint's rate-limit classes, the multipart form (read into `body` and `files`), then params, query
 * and body against their schemas. So every route refuses what its schema refuses, with the one error shape
 * and its field errors, before anything is written.
 */
export function serve<E extends Endpoint>(
  app: FastifyInstance,
  endpoint: E,
  handler: EndpointHandler<E>,
): void {
  const response = responseSchemas(endpoint);
  const otherStatuses = new Set(Object.keys(endpoint.otherResponses ?? {}).map(Number));

  const checks: RequestCheck[] = [];
  if (endpoint.access === 'signed-in') {
    checks.push(async (request) => {
      await requireViewer(request);
    });
  }
  if (endpoint.access === 'active') {
    checks.push(async (request) => {
      await requireActiveViewer(request);
    });
  }
  if (endpoint.access === 'moderator' || endpoint.access === 'admin') {
    const access = endpoint.access;
    checks.push(async (request) => {
      await requireStaffViewer(request, access);
    });
  }
  for (const rateClass of endpoint.rateLimit ?? []) checks.push(...app.rateClasses[rateClass]);
  const form = endpoint.form;
  if (form) {
    checks.push(async (request) => {
      if (!request.isMultipart()) return;
      const tooMany = form.tooManyFiles;
      const { fields, files } = await readForm(request, form.files, {
        tooManyFiles: tooMany
          ? () => new Invalid(tooMany.message, { [tooMany.field]: tooMany.message })
          : undefined,
      });
      request.body = fields;
      formFiles.set(request, files);
    });
  }

  const running = handlersInFlight(app);
  app.route({
    method: endpoint.method,
    url: routePath(endpoint.path),
    schema: {
      ...(endpoint.params ? { params: endpoint.params } : {}),
      ...(endpoint.query ? { querystring: endpoint.query } : {}),
      ...(endpoint.body || form ? { body: endpoint.body ?? form?.fields } : {}),
      response,
    },
    ...(form ? { bodyLimit: form.maxBytes } : {}),
    config: { anyOrigin: endpoint.anyOrigin === true, contractEndpoint: true },
    preValidation: checks,
    handler: async (request, reply) => {
      // Shutdown waits for the handlers still running, even those whose client has gone (in-flight.ts).
      const ended = running.begin();
      let result: Awaited<ReturnType<EndpointHandler<E>>>;
      try {
        const viewer =
          endpoint.access === 'public'
            ? () => request.viewer()
            : // Resolved by the access check above; the lookup is cached per request.
              await requireViewer(request);
        // The validator compiler has replaced params, query and body with their schemas' output.
        const call = {
          params: request.params,
          query: request.query,
          body: request.body,
          viewer,
          files: formFiles.get(request) ?? [],
          request,
          reply,
        } as EndpointCall<E>;
        result = await handler(call);
      } finally {
        ended();
      }
      if (reply.sent) return reply;
      // A handler answers one of the endpoint's `otherResponses` by setting its status on the reply.
      const status = otherStatuses.has(reply.statusCode) ? reply.statusCode : endpoint.status;
      if (result instanceof JsonText) {
        return reply.code(status).type('application/json; charset=utf-8').send(result.text);
      }
      return reply.code(status).send(status === 204 ? null : result);
    },
  });
}
