import type { z } from 'zod';
import type { RateClass } from './rate-classes.js';

/**
 * One endpoint, defined once (ADR 0012): the server registers its route from this, the web app calls it
 * through `callApi`, and the OpenAPI document is generated from it. Nothing else names its path.
 */

export type HttpMethod = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';

/**
 * Who may call: anyone; a signed-in user (inactive and suspended ones too, spec §6: they still manage their
 * account); an active user, the only ones who change anything others see (spec §4); or an active moderator
 * or administrator (`moderator`), or administrator alone (`admin`), for the console (ADR 0021). Whether the
 * staff member may act on a particular account is decided by the service.
 */
export type Access = 'public' | 'signed-in' | 'active' | 'moderator' | 'admin';

/** Access levels that need an active account that is not suspended. */
export function needsActive(access: Access): boolean {
  return access === 'active' || access === 'moderator' || access === 'admin';
}

/** Sections of the API documentation, in the order they are listed. */
export const endpointTags = [
  'Auth',
  'Account',
  'Users',
  'Profiles',
  'Follows',
  'Posts',
  'Comments',
  'Notifications',
  'Search',
  'Relationships',
  'Reports',
  'Moderation',
  'Administration',
  'Instance',
] as const;
export type EndpointTag = (typeof endpointTags)[number];

/** Error statuses an endpoint may answer besides the ones every endpoint shares; see `errorStatuses`. */
export type ErrorStatus = 400 | 401 | 403 | 404 | 409 | 413 | 414 | 415 | 429 | 431 | 503;

/**
 * A multipart/form-data body: text fields validated by one schema, like a JSON body (the same endpoint takes
 * JSON when no file comes along), and named file fields of at most one file each.
 */
export interface FormBody<Fields extends z.ZodObject = z.ZodObject> {
  fields: Fields;
  files: readonly string[];
  /** Largest request body, files included. */
  maxBytes: number;
  /** The field error given when more files come than `files` names. */
  tooManyFiles?: { field: string; message: string };
}

export interface Endpoint {
  /** The operationId: unique, camelCase. */
  id: string;
  method: HttpMethod;
  /** `/api/…` with `{name}` for each path parameter; `params` has a field for each. */
  path: `/api/${string}`;
  tag: EndpointTag;
  summary: string;
  description?: string;
  access: Access;
  params?: z.ZodObject;
  query?: z.ZodType;
  /** A JSON body. */
  body?: z.ZodType;
  /** A multipart body (or JSON with the same fields). */
  form?: FormBody;
  /** The one success status and its body; 204 answers carry none (`z.null()`). */
  status: 200 | 201 | 202 | 204;
  response: z.ZodType;
  /** Failures particular to this endpoint; `errorStatuses` adds the ones that follow from the rest. */
  errors?: readonly ErrorStatus[];
  /**
   * Statuses whose body is not the error shape, with their schema: a readiness probe's 503 carries its
   * checks. The handler sets such a status on the reply and returns that body.
   */
  otherResponses?: Partial<Record<ErrorStatus, z.ZodType>>;
  /** Rate-limit classes, checked in order before the body is read. */
  rateLimit?: readonly RateClass[];
  /** `false` for operators' probes, which are outside the API request budget (DESIGN.md "Default limits"). */
  budget?: false;
  /**
   * `true` for a state-changing endpoint whose only authority is a token in its path, never a cookie: it
   * takes requests from any origin, or none (mail clients send one-click unsubscribes, RFC 8058, from their
   * own servers), since a forged cross-site request would need the very token it is after.
   */
  anyOrigin?: true;
}

/** Keeps an endpoint's literal type (and so its schemas' types) for the server and the client. */
export function defineEndpoint<const E extends Endpoint>(endpoint: E): E {
  return endpoint;
}

/** Methods that change something: they must come from the app's own origin (CSRF defence). */
export function isStateChanging(method: HttpMethod): boolean {
  return method !== 'GET';
}

/** Whether requests to the endpoint must come from the app's own origin (all that change something but `anyOrigin` ones). */
export function checksOrigin(endpoint: Pick<Endpoint, 'method' | 'anyOrigin'>): boolean {
  return isStateChanging(endpoint.method) && endpoint.anyOrigin !== true;
}

/** Every error status an endpoint can answer, in order. */
export function errorStatuses(endpoint: Endpoint): ErrorStatus[] {
  const statuses = new Set<ErrorStatus>(endpoint.errors ?? []);
  // Any request may be malformed (an address with bytes the router refuses, a JSON body that does not parse),
  // and every input is checked against its schema.
  statuses.add(400);
  if (endpoint.access !== 'public') statuses.add(401);
  // An inactive or suspended account (spec §6), a role short of the endpoint's, or a request from another
  // origin.
  if (needsActive(endpoint.access) || checksOrigin(endpoint)) statuses.add(403);
  // Any request may come with a body too large or of a type nothing reads, or an address or headers past
  // the server's bounds (DESIGN.md "Bounded by default").
  for (const status of [413, 414, 415, 431] as const) statuses.add(status);
  // The API request budget; probes are outside it.
  if (endpoint.budget !== false) statuses.add(429);
  // Any endpoint may meet a database that is down.
  statuses.add(503);
  return [...statuses].sort((a, b) => a - b);
}

/** The names of a path's `{parameters}`, in order. */
export function pathParameterNames(path: string): string[] {
  return [...path.matchAll(/\{([A-Za-z][A-Za-z0-9]*)\}/g)].map((match) => match[1] ?? '');
}

/** The path with each `{name}` replaced by its encoded value. */
export function fillPath(path: string, params: object): string {
  const values = new Map<string, unknown>(Object.entries(params));
  return path.replace(/\{([A-Za-z][A-Za-z0-9]*)\}/g, (_whole, name: string) => {
    const value = values.get(name);
    if (typeof value !== 'string') throw new Error(`Missing path parameter "${name}" for ${path}.`);
    return encodeURIComponent(value);
  });
}

/** The path in Fastify's syntax: `/api/posts/:postId`. */
export function routePath(path: string): string {
  return path.replace(/\{([A-Za-z][A-Za-z0-9]*)\}/g, ':$1');
}

type Schema<E, K extends string> = E extends { [key in K]: infer S extends z.ZodType } ? S : never;

/** What a caller passes: path parameters, query and body, typed by the endpoint's schemas (inputs). */
export type EndpointInput<E extends Endpoint> = (E extends { params: z.ZodObject }
  ? { params: z.input<Schema<E, 'params'>> }
  : { params?: undefined }) &
  (E extends { query: z.ZodType }
    ? { query?: z.input<Schema<E, 'query'>> }
    : { query?: undefined }) &
  (E extends { body: z.ZodType }
    ? { body: z.input<Schema<E, 'body'>> }
    : E extends { form: FormBody<infer Fields> }
      ? {
          body: z.input<Fields>;
          files?: Partial<Record<E['form']['files'][number], Blob>>;
        }
      : { body?: undefined });

/** What a handler receives once the input passed its schemas (outputs). */
export interface ParsedInput<E extends Endpoint> {
  params: E extends { params: z.ZodObject } ? z.output<Schema<E, 'params'>> : Record<string, never>;
  query: E extends { query: z.ZodType } ? z.output<Schema<E, 'query'>> : Record<string, never>;
  body: E extends { body: z.ZodType }
    ? z.output<Schema<E, 'body'>>
    : E extends { form: FormBody<infer Fields> }
      ? z.output<Fields>
      : undefined;
}

/** The success body a caller gets back. */
export type EndpointResponse<E extends Endpoint> = z.output<E['response']>;
