import { randomBytes } from 'node:crypto';
import http from 'node:http';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { checksOrigin, type Endpoint } from '../../shared/contract/endpoint.js';
import { endpointList } from '../../shared/contract/index.js';
import { errorBodySchema } from '../../shared/errors.js';
import { limits } from '../../shared/limits.js';
import {
  createTestApp,
  databaseTargets,
  listen,
  testOrigin,
  type TestApp,
} from '../test/harness.js';
import { png } from '../test/images.js';
import {
  buildOpenApiDocument,
  documentedResponses,
  type JsonSchema,
  type OpenApiDocument,
  type OperationObject,
  type ParameterObject,
} from './openapi.js';

/*
 * ADR 0012: requests generated from the contract, valid and invalid, against a live server. Whatever comes
 * in, the answer is never a 5xx, its status is one the endpoint documents, and its body matches the schema
 * documented for that status. Rate limits are off for this app (RATE_LIMITS=off), so the figures measure
 * validation and handlers rather than 429s; every other setting is the default.
 *
 * Among the invalid requests are those the server refuses before any handler runs, whose statuses
 * `errorStatuses` lists for every endpoint (DESIGN.md "Bounded by default"): a path segment past the
 * router's 256 characters (414), an address that takes the headers past Node's 16 KiB (431, written by
 * the client-error handler, which then closes the connection), bodies sent to endpoints that take none
 * (413 past 64 KiB unless a form, which goes unread; below it, 415 when not JSON where the method's body
 * is read at all, while JSON is read and ignored), and state-changing requests with another Origin or
 * none (403 `origin_mismatch`). Each of these must also get the one answer it calls for, not merely a
 * documented one. A connection the server closes before its answer arrives is allowed only where it
 * refuses a request unread (431, 413), and counted.
 *
 * FUZZ_SEED=<n> replays a run; the seed is printed with the figures at the end.
 */

/** Requests per endpoint that the schemas say are valid, and requests made to be refused. */
const validRuns = 30;
const invalidRuns = 50;

// ---------------------------------------------------------------------------------------------------
// Values the server knows: real ids, so that valid requests reach the handlers. A generated value may
// stand for one; it is looked up when the request is sent, so that a re-seeded post is still found.
// ---------------------------------------------------------------------------------------------------

type PoolName = 'postId' | 'commentId' | 'uid' | 'username' | 'sessionId' | 'email';

class Known {
  constructor(
    readonly pool: PoolName,
    readonly pick: number,
  ) {}
}

/** Which pool a field of this name draws from, when it draws from one. */
const poolOfField: Record<string, PoolName> = {
  postId: 'postId',
  commentId: 'commentId',
  parentId: 'commentId',
  cursor: 'postId',
  after: 'postId',
  uid: 'uid',
  username: 'username',
  identifier: 'username',
  id: 'sessionId',
  email: 'email',
  newEmail: 'email',
};

/** Fields whose rule is a refinement JSON Schema cannot state: values that keep it, besides any others. */
const refinedFields: Record<string, fc.Arbitrary<unknown>> = {
  website: fc
    .webUrl({ validSchemes: ['https', 'http'] })
    .filter((url) => url.length <= 200 && new URL(url).hostname.includes('.')),
};

// ---------------------------------------------------------------------------------------------------
// JSON Schema → fast-check: the request schemas of the OpenAPI document (zod's input side).
// ---------------------------------------------------------------------------------------------------

type Arb = fc.Arbitrary<unknown>;

function isSchema(value: unknown): value is JsonSchema {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** Builds arbitraries of valid values for schemas of one document. */
class SchemaArbitraries {
  constructor(private readonly document: OpenApiDocument) {}

  resolve(schema: JsonSchema): JsonSchema {
    const ref = schema.$ref;
    if (typeof ref !== 'string') return schema;
    const target = this.document.components.schemas[ref.replace('#/components/schemas/', '')];
    if (!target) throw new Error(`unknown reference ${ref}`);
    // Keywords next to a $ref (a default) apply too; the target's win where both speak.
    const { $ref: _ref, ...siblings } = schema;
    return { ...siblings, ...this.resolve(target) };
  }

  /** Any value the schema accepts; `field` names the property, to draw from a pool of real values. */
  valid(input: JsonSchema, field?: string): Arb {
    const schema = this.resolve(input);
    const pool = field ? poolOfField[field] : undefined;
    const refined = field ? refinedFields[field] : undefined;
    const plain = refined ? fc.oneof(refined, this.#plain(schema)) : this.#plain(schema);
    if (!pool) return plain;
    const known = fc.nat().map((pick) => new Known(pool, pick));
    return fc.oneof({ arbitrary: known, weight: 3 }, { arbitrary: plain, weight: 1 });
  }

  #plain(schema: JsonSchema): Arb {
    if (schema.const !== undefined) return fc.constant(schema.const);
    if (schema.enum) return fc.constantFrom(...schema.enum);
    const union = schema.anyOf ?? schema.oneOf;
    if (union) return fc.oneof(...union.map((member) => this.valid(member)));
    if (Array.isArray(schema.type)) {
      return fc.oneof(...schema.type.map((type) => this.#plain({ ...schema, type })));
    }
    switch (schema.type) {
      case 'null':
        return fc.constant(null);
      case 'boolean':
        return fc.boolean();
      case 'integer':
      case 'number': {
        const min = typeof schema.minimum === 'number' ? schema.minimum : -1_000_000;
        const max = typeof schema.maximum === 'number' ? schema.maximum : 1_000_000;
        return schema.type === 'integer'
          ? fc.integer({ min, max })
          : fc.double({ min, max, noNaN: true, noDefaultInfinity: true });
      }
      case 'string':
        return this.#string(schema);
      case 'array': {
        const items = isSchema(schema.items) ? this.valid(schema.items) : fc.jsonValue();
        const maxLength = Math.min(schema.maxItems ?? 4, 4);
        return fc.array(items, { minLength: Math.min(schema.minItems ?? 0, maxLength), maxLength });
      }
      case 'object': {
        const properties = Object.entries(schema.properties ?? {}).filter(
          (entry): entry is [string, JsonSchema] => isSchema(entry[1]),
        );
        const model = Object.fromEntries(
          properties.map(([name, property]) => [name, this.valid(property, name)]),
        );
        const requiredKeys = (schema.required ?? []).filter((name) => name in model);
        return fc.record(model, { requiredKeys });
      }
      case undefined:
        return fc.jsonValue({ maxDepth: 2 });
    }
  }

  #string(schema: JsonSchema): Arb {
    const minLength = schema.minLength ?? 0;
    const maxLength = Math.min(schema.maxLength ?? 60, 300);
    const fits = (value: string) => value.length >= minLength && value.length <= maxLength;
    if (schema.format === 'email') return fc.emailAddress().filter(fits);
    if (typeof schema.pattern === 'string') {
      // JSON Schema patterns are ECMA-262 regular expressions with Unicode semantics.
      return fc.stringMatching(new RegExp(schema.pattern, 'u')).filter(fits);
    }
    return fc.oneof(
      fc.string({ minLength, maxLength }),
      fc.string({ minLength, maxLength, unit: 'grapheme' }),
    );
  }
}

// ---------------------------------------------------------------------------------------------------
// Requests: what was generated, and how it goes over the wire.
// ---------------------------------------------------------------------------------------------------

interface FilePart {
  field: string;
  filename: string;
  contentType: string;
  bytes: Buffer | 'image';
}

type Body =
  | { kind: 'none' }
  | { kind: 'json'; value: unknown }
  | { kind: 'raw'; contentType: string | null; bytes: Buffer }
  | {
      kind: 'multipart';
      /** Text fields; values are written as text (pool picks are looked up first). */
      fields: [string, unknown][];
      files: FilePart[];
      /** The boundary the header names, when it differs from the one the body uses. */
      headerBoundary?: string;
      truncated?: boolean;
    };

interface FuzzRequest {
  /** `valid`, or the way the request was spoiled. */
  kind: string;
  /** Path parameters: values to encode, or raw text already in URL form. */
  params: Record<string, unknown>;
  rawParams?: Record<string, string>;
  query: [string, unknown][];
  rawQuery?: string;
  body: Body;
  anonymous?: boolean;
  /** The Origin header instead of this instance's; `null` sends none. */
  origin?: string | null;
  /** The one answer this request calls for, where the server's bounds decide it before any handler. */
  expected?: { status: number; code?: string };
  /** Refused unread, so the server may close the connection before the client has read the answer. */
  refusedUnread?: true;
}

interface Pools {
  postId: string[];
  commentId: string[];
  uid: string[];
  username: string[];
  sessionId: string[];
  email: string[];
}

/** A generated value made concrete: pool picks become real values. */
function concrete(value: unknown, pools: Pools): unknown {
  if (value instanceof Known) {
    const pool = pools[value.pool];
    return pool[value.pick % pool.length] ?? '1';
  }
  if (Array.isArray(value)) return value.map((item) => concrete(item, pools));
  if (typeof value === 'object' && value !== null) {
    return Object.fromEntries(
      Object.entries(value).map(([key, item]) => [key, concrete(item, pools)]),
    );
  }
  return value;
}

/** Text for a path segment or a query value, as a browser would write it. */
function asText(value: unknown): string {
  if (typeof value === 'string') return value;
  if (value === null || value === undefined) return '';
  if (typeof value === 'number' || typeof value === 'boolean') return String(value);
  return JSON.stringify(value);
}

/** Percent-encodes the UTF-8 of `text`, lone surrogates included (they become U+FFFD, as in browsers). */
function encode(text: string): string {
  return [...Buffer.from(text, 'utf8')]
    .map((byte) =>
      /[A-Za-z0-9\-_.~]/.test(String.fromCharCode(byte))
        ? String.fromCharCode(byte)
        : `%${byte.toString(16).toUpperCase().padStart(2, '0')}`,
    )
    .join('');
}

interface Wire {
  method: string;
  path: string;
  headers: Record<string, string>;
  body?: Buffer;
}

function multipartBytes(body: Extract<Body, { kind: 'multipart' }>, pools: Pools, image: Buffer) {
  const boundary = `----hearthfuzz${randomBytes(8).toString('hex')}`;
  const chunks: Buffer[] = [];
  for (const [name, value] of body.fields) {
    const text = asText(concrete(value, pools));
    chunks.push(
      Buffer.from(
        `--${boundary}\r\nContent-Disposition: form-data; name="${name}"\r\n\r\n${text}\r\n`,
      ),
    );
  }
  for (const file of body.files) {
    chunks.push(
      Buffer.from(
        `--${boundary}\r\nContent-Disposition: form-data; name="${file.field}"; filename="${file.filename}"\r\nContent-Type: ${file.contentType}\r\n\r\n`,
      ),
      file.bytes === 'image' ? image : file.bytes,
      Buffer.from('\r\n'),
    );
  }
  if (!body.truncated) chunks.push(Buffer.from(`--${boundary}--\r\n`));
  return {
    bytes: Buffer.concat(chunks),
    contentType: `multipart/form-data; boundary=${body.headerBoundary ?? boundary}`,
  };
}

function toWire(
  endpoint: Endpoint,
  request: FuzzRequest,
  pools: Pools,
  context: { cookie: string; image: Buffer },
): Wire {
  const params = concrete(request.params, pools) as Record<string, unknown>;
  const path = endpoint.path.replace(/\{(\w+)\}/g, (_whole, name: string) => {
    const raw = request.rawParams?.[name];
    return raw ?? encode(asText(params[name]));
  });
  const query =
    request.rawQuery ??
    (concrete(request.query, pools) as [string, unknown][])
      .map(([name, value]) => `${encode(name)}=${encode(asText(value))}`)
      .join('&');
  const headers: Record<string, string> = {};
  const origin = request.origin === undefined ? testOrigin : request.origin;
  if (origin !== null) headers.origin = origin;
  if (!request.anonymous && context.cookie) headers.cookie = context.cookie;
  let body: Buffer | undefined;
  switch (request.body.kind) {
    case 'none':
      break;
    case 'json':
      headers['content-type'] = 'application/json';
      body = Buffer.from(JSON.stringify(concrete(request.body.value, pools)));
      break;
    case 'raw':
      if (request.body.contentType !== null) headers['content-type'] = request.body.contentType;
      body = request.body.bytes;
      break;
    case 'multipart': {
      const multipart = multipartBytes(request.body, pools, context.image);
      headers['content-type'] = multipart.contentType;
      body = multipart.bytes;
      break;
    }
  }
  return { method: endpoint.method, path: query ? `${path}?${query}` : path, headers, body };
}

interface Answer {
  status: number;
  headers: http.IncomingHttpHeaders;
  body: Buffer;
}

/** A connection that ended before a whole answer arrived, and how. */
interface Closed {
  closed: string;
}

const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });

/**
 * One request over a real connection: the path goes out exactly as written, odd bytes and all. A server
 * that refuses a request unread writes its answer and closes the connection at once; the client may then
 * meet the close (a reset, a broken pipe) before it has read the answer, which is returned as `Closed`.
 */
function send(baseUrl: string, wire: Wire): Promise<Answer | Closed> {
  const { hostname, port } = new URL(baseUrl);
  return new Promise<Answer | Closed>((resolve) => {
    const closed = (error: Error & { code?: string }) =>
      resolve({ closed: error.code ?? error.message });
    const request = http.request(
      {
        host: hostname,
        port,
        method: wire.method,
        path: wire.path,
        agent,
        headers: {
          ...wire.headers,
          ...(wire.body ? { 'content-length': String(wire.body.length) } : {}),
        },
      },
      (response) => {
        const chunks: Buffer[] = [];
        response.on('data', (chunk: Buffer) => chunks.push(chunk));
        response.on('end', () =>
          resolve({
            status: response.statusCode ?? 0,
            headers: response.headers,
            body: Buffer.concat(chunks),
          }),
        );
        response.on('error', closed);
      },
    );
    request.setTimeout(15_000, () => request.destroy(new Error('no answer within 15 s')));
    // Once the answer is complete, a reset that follows it changes nothing: the promise is settled.
    request.on('error', closed);
    request.end(wire.body);
  });
}

// ---------------------------------------------------------------------------------------------------
// Invalid requests: each spoils a valid one in one way.
// ---------------------------------------------------------------------------------------------------

const oddText = [
  '\uD800',
  'lone \uDFFF surrogate',
  'nul\u0000byte',
  '\u202Egnp.exe',
  'right\u200Fto\u200Eleft',
  '👩‍👩‍👧‍👦👨🏽‍🚀',
  'e\u0301\u0301\u0301\u0301\u0301\u0301',
  '\uFEFFbom',
  '\uFFFF\uFFFE',
  'Z̸̡̛͓̰̠̈́͊a̵͖̓l̴̬̒g̶̱̈o̷̞͝',
  '\u0000',
  '',
  ' ',
  '\t\r\n',
];

const malformedIds = [
  '0',
  '-1',
  '01',
  'abc',
  '1e3',
  '1.0',
  '0x10',
  '%201',
  '1%20',
  '%D9%A1%D9%A2%D9%A3',
  '9'.repeat(17),
  '9'.repeat(40),
  'a'.repeat(256),
  '%ZZ',
  '%',
  '%00',
  '%ED%A0%80',
  '%C0%AF',
  '%FF%FE',
  '.',
  '..',
  '%2e%2e',
  '%2F',
  ';',
  '%3F',
  '%23',
];

const malformedQueryValues = [
  'abc',
  '-1',
  '0',
  '1e309',
  'NaN',
  'Infinity',
  '%ZZ',
  '%00',
  '%FF',
  '9'.repeat(40),
];

const malformedJson = [
  '{',
  '{"body":',
  '[]',
  'null',
  '"text"',
  '42',
  '{"a":1}garbage',
  '\u0000',
  `${'['.repeat(5000)}${']'.repeat(5000)}`,
  `{"a":${'{"a":'.repeat(40)}1${'}'.repeat(40)}}`,
  '\uFEFF{}',
  '{"__proto__":{"admin":true}}',
  '{"constructor":{"prototype":{"admin":true}}}',
  `[${'1,'.repeat(5000)}1]`,
  '{"a":"\\ud800"}',
  '{"a":"\\u0000"}',
  "{'a':1}",
];

const wrongContentTypes = [
  'text/plain',
  'application/xml',
  'application/x-www-form-urlencoded',
  'application/json; charset=utf-16',
  'multipart/form-data',
  'image/png',
  '',
  null,
];

/** Types of bodies sent to endpoints that take none; a JSON type is read (and ignored) instead. */
const unreadBodyTypes = [
  'text/plain',
  'application/xml',
  'application/x-www-form-urlencoded',
  'application/octet-stream',
  'image/png',
  'multipart/form-data; boundary=x',
  '',
  null,
];

/** Methods whose bodies the server reads (and so types); Fastify leaves a GET's unread. */
const readsBody = (endpoint: Endpoint) => endpoint.method !== 'GET';

/** The router's bound on one path parameter, in characters once decoded (app.ts `maxParamLength`). */
const maxParamLength = 256;

/** Other origins a state-changing request may come from, as a browser or a script would send them. */
const foreignOrigins: (string | null)[] = [
  'https://evil.example',
  'null',
  null,
  '',
  testOrigin.replace(/^http:/, 'https:'),
  `${testOrigin}:8080`,
  `${testOrigin}.evil.example`,
  `${testOrigin}/`,
  testOrigin.toUpperCase(),
  `${testOrigin}, https://evil.example`,
];

/** `unit` repeated to at least `length` characters. */
function repeatTo(unit: string, length: number): string {
  return unit.repeat(Math.ceil(length / unit.length));
}

/** Every key path to a string value of a JSON body, its own first. */
function stringPaths(value: unknown, path: string[] = []): string[][] {
  if (typeof value === 'string' || value instanceof Known) return [path];
  if (typeof value !== 'object' || value === null) return [];
  return Object.entries(value).flatMap(([key, item]) => stringPaths(item, [...path, key]));
}

function setAt(value: unknown, path: string[], replacement: unknown): unknown {
  const [head, ...rest] = path;
  if (head === undefined) return replacement;
  if (Array.isArray(value)) {
    const copy = (value as unknown[]).slice();
    copy[Number(head)] = setAt(copy[Number(head)], rest, replacement);
    return copy;
  }
  const copy = { ...(value as Record<string, unknown>) };
  copy[head] = setAt(copy[head], rest, replacement);
  return copy;
}

const wrongTypeValues: unknown[] = [
  0,
  -1.5,
  true,
  false,
  null,
  [],
  ['x'],
  {},
  { nested: 'x' },
  1e308,
];

/** How a valid request can be spoiled, given what the endpoint takes. */
function spoilers(
  endpoint: Endpoint,
  operation: OperationObject,
): fc.Arbitrary<(r: FuzzRequest) => FuzzRequest>[] {
  const takesBody = Boolean(endpoint.body ?? endpoint.form);
  const pathNames = Object.keys(endpoint.params?.shape ?? {});
  const queryNames = (operation.parameters ?? [])
    .filter((parameter) => parameter.in === 'query')
    .map((parameter) => parameter.name);
  const options: fc.Arbitrary<(r: FuzzRequest) => FuzzRequest>[] = [
    // Signed out, wherever a session is needed or not.
    fc.constant((r: FuzzRequest) => ({ ...r, kind: 'anonymous', anonymous: true })),
    // Parameters the endpoint does not know.
    fc
      .tuple(fc.constantFrom('extra', '__proto__', 'constructor', 'limit[]', 'a.b'), fc.string())
      .map(([name, value]) => (r: FuzzRequest) => ({
        ...r,
        kind: 'extra-query',
        rawQuery: `${encode(name)}=${encode(value)}`,
      })),
  ];
  options.push(
    // An address whose request line alone passes Node's bound on headers (431 before any routing).
    fc
      .tuple(
        fc.constantFrom(...queryNames, 'q'),
        fc.constantFrom('x', '9', '%20', '%F0%9F%94%A5'),
        fc.integer({ min: http.maxHeaderSize + 1, max: 3 * http.maxHeaderSize }),
      )
      .map(([name, unit, length]) => (r: FuzzRequest) => ({
        ...r,
        kind: 'huge-query',
        rawQuery: `${name}=${repeatTo(unit, length)}`,
        expected: { status: 431 },
        refusedUnread: true,
      })),
  );
  if (checksOrigin(endpoint)) {
    options.push(
      fc.constantFrom(...foreignOrigins).map((origin) => (r: FuzzRequest) => ({
        ...r,
        kind: 'foreign-origin',
        origin,
        expected: { status: 403, code: 'origin_mismatch' },
      })),
    );
  }
  if (!takesBody) options.push(...unreadBodies(endpoint));
  if (pathNames.length > 0) {
    options.push(
      // Past the router's bound once decoded (an emoji counts two), so refused before any schema.
      fc
        .tuple(
          fc.constantFrom(...pathNames),
          fc.constantFrom('9', 'a', 'a-b_c.d~', 'é', '🔥'),
          fc.integer({ min: maxParamLength + 1, max: 8 * maxParamLength }),
        )
        .map(([name, unit, length]) => (r: FuzzRequest) => ({
          ...r,
          kind: 'long-segment',
          rawParams: { [name]: encode(repeatTo(unit, length)) },
          expected: { status: 414 },
        })),
      fc
        .tuple(fc.constantFrom(...pathNames), fc.constantFrom(...malformedIds))
        .map(([name, raw]) => (r: FuzzRequest) => ({
          ...r,
          kind: 'malformed-id',
          rawParams: { [name]: raw },
        })),
      fc
        .tuple(fc.constantFrom(...pathNames), fc.constantFrom(...oddText))
        .map(([name, text]) => (r: FuzzRequest) => ({
          ...r,
          kind: 'odd-unicode-param',
          params: { ...r.params, [name]: text },
        })),
    );
  }
  if (queryNames.length > 0) {
    options.push(
      fc
        .tuple(fc.constantFrom(...queryNames), fc.constantFrom(...malformedQueryValues))
        .map(([name, raw]) => (r: FuzzRequest) => ({
          ...r,
          kind: 'malformed-query',
          rawQuery: `${name}=${raw}`,
        })),
      fc.constantFrom(...queryNames).map((name) => (r: FuzzRequest) => ({
        ...r,
        kind: 'repeated-query',
        rawQuery: `${name}=1&${name}=2`,
      })),
      fc
        .tuple(fc.constantFrom(...queryNames), fc.constantFrom(...oddText, 'x'.repeat(4000)))
        .map(([name, text]) => (r: FuzzRequest) => ({
          ...r,
          kind: 'odd-unicode-query',
          query: [[name, text]],
        })),
    );
  }
  if (takesBody) {
    options.push(
      fc.constantFrom(...malformedJson).map((text) => (r: FuzzRequest) => ({
        ...r,
        kind: 'malformed-json',
        body: { kind: 'raw', contentType: 'application/json', bytes: Buffer.from(text) },
      })),
      fc.constantFrom(...wrongContentTypes).map((contentType) => (r: FuzzRequest) => ({
        ...r,
        kind: 'wrong-content-type',
        body: { kind: 'raw', contentType, bytes: Buffer.from('body=hello&x=1') },
      })),
      fc.constant((r: FuzzRequest) => ({
        ...r,
        kind: 'no-body',
        body: { kind: 'raw', contentType: 'application/json', bytes: Buffer.alloc(0) },
      })),
      fc.constant((r: FuzzRequest) => ({
        ...r,
        kind: 'invalid-utf8',
        body: {
          kind: 'raw',
          contentType: 'application/json',
          bytes: Buffer.from([0x7b, 0x22, 0xff, 0xfe, 0x22, 0x3a, 0x31, 0x7d]),
        },
      })),
      fc
        .nat()
        .map((pick) => (r: FuzzRequest) => mutateJson(r, 'huge-string', pick, 'x'.repeat(100_000))),
      fc.tuple(fc.nat(), fc.constantFrom(...oddText)).map(
        ([pick, text]) =>
          (r: FuzzRequest) =>
            mutateJson(r, 'odd-unicode-body', pick, text),
      ),
      fc.tuple(fc.nat(), fc.constantFrom(...wrongTypeValues)).map(
        ([pick, value]) =>
          (r: FuzzRequest) =>
            mutateJson(r, 'wrong-type', pick, value),
      ),
      fc.nat().map((pick) => (r: FuzzRequest) => dropField(r, pick)),
      fc
        .tuple(
          fc.constantFrom('extra', 'role', 'active', 'uid', 'authorId'),
          fc.jsonValue({ maxDepth: 1 }),
        )
        .map(([name, value]) => (r: FuzzRequest) => {
          if (r.body.kind !== 'json' || typeof r.body.value !== 'object' || r.body.value === null)
            return r;
          return {
            ...r,
            kind: 'extra-field',
            body: { kind: 'json', value: { ...r.body.value, [name]: value } },
          };
        }),
      fc.constantFrom(...wrongTypeValues).map((value) => (r: FuzzRequest) => ({
        ...r,
        kind: 'wrong-type-body',
        body: { kind: 'json', value },
      })),
      multipartJunk(endpoint),
    );
  }
  return options;
}

/**
 * Bodies sent to an endpoint that takes none. Past the JSON bound, any type but a form is refused by its
 * length alone (413); a form is left unread by its parser. Below it, JSON is read and ignored, anything
 * else is refused by its type (415) where the method's body is read at all.
 */
function unreadBodies(endpoint: Endpoint): fc.Arbitrary<(r: FuzzRequest) => FuzzRequest>[] {
  const large = fc.integer({ min: limits.jsonBodyBytes + 1, max: 3 * limits.jsonBodyBytes });
  const spoil = (kind: string, contentType: string | null, bytes: Buffer) => (r: FuzzRequest) => {
    const isLarge = bytes.length > limits.jsonBodyBytes;
    const isForm = contentType !== null && /^multipart\//i.test(contentType);
    const isJson = contentType !== null && /^application\/json/i.test(contentType);
    let expected: FuzzRequest['expected'];
    if (isLarge && !isForm) expected = { status: 413 };
    else if (!isLarge && !isJson && !isForm && readsBody(endpoint)) expected = { status: 415 };
    return {
      ...r,
      kind,
      body: { kind: 'raw' as const, contentType, bytes },
      ...(expected ? { expected } : {}),
      // Answered before the body is read: the server closes the connection behind its answer.
      ...(isLarge ? { refusedUnread: true as const } : {}),
    };
  };
  return [
    fc
      .jsonValue({ maxDepth: 2 })
      .map((value) => JSON.stringify(value))
      // Keys that could poison a prototype are refused as malformed JSON; that is not what this tests.
      .filter((text) => !/__proto__|constructor|prototype/.test(text))
      .map((text) => spoil('unread-json', 'application/json', Buffer.from(text))),
    // JSON that does not parse (or is empty, or could poison a prototype) is refused as malformed (400)
    // wherever the method's body is read, even by an endpoint that would ignore it.
    fc.constantFrom('{', '', '{"__proto__":{}}', '{"a":1}garbage').map((text) => {
      const send = spoil('unread-json-malformed', 'application/json', Buffer.from(text));
      return (r: FuzzRequest): FuzzRequest => ({
        ...send(r),
        ...(readsBody(endpoint) ? { expected: { status: 400 } } : {}),
      });
    }),
    large.map((length) =>
      spoil(
        'unread-json-large',
        'application/json',
        Buffer.from(JSON.stringify({ body: 'x'.repeat(length) })),
      ),
    ),
    fc
      .tuple(fc.constantFrom(...unreadBodyTypes), fc.uint8Array({ minLength: 1, maxLength: 2048 }))
      .map(([contentType, bytes]) => spoil('unread-body', contentType, Buffer.from(bytes))),
    fc
      .tuple(
        fc.constantFrom(...unreadBodyTypes),
        fc.uint8Array({ minLength: 1, maxLength: 64 }),
        large,
      )
      .map(([contentType, pattern, length]) => {
        const bytes = Buffer.alloc(length, Buffer.from(pattern));
        return spoil('unread-body-large', contentType, bytes);
      }),
  ];
}

function mutateJson(r: FuzzRequest, kind: string, pick: number, replacement: unknown): FuzzRequest {
  const value = r.body.kind === 'json' ? r.body.value : {};
  const paths = stringPaths(value);
  const target = paths[pick % Math.max(paths.length, 1)] ?? ['body'];
  return { ...r, kind, body: { kind: 'json', value: setAt(value, target, replacement) } };
}

function dropField(r: FuzzRequest, pick: number): FuzzRequest {
  if (r.body.kind !== 'json' || typeof r.body.value !== 'object' || r.body.value === null) return r;
  const fields = Object.keys(r.body.value);
  const name = fields[pick % Math.max(fields.length, 1)];
  if (name === undefined) return { ...r, kind: 'missing-field' };
  const { [name]: _dropped, ...rest } = r.body.value as Record<string, unknown>;
  return { ...r, kind: 'missing-field', body: { kind: 'json', value: rest } };
}

interface SpoiledForm {
  kind: string;
  files: FilePart[];
  fields?: [string, unknown][];
  truncated?: boolean;
  headerBoundary?: string;
}

/** Multipart bodies that a form must refuse whole (and that a JSON endpoint refuses as a type). */
function multipartJunk(endpoint: Endpoint): fc.Arbitrary<(r: FuzzRequest) => FuzzRequest> {
  const fileFields = endpoint.form?.files ?? ['file'];
  const junk = fc.uint8Array({ minLength: 0, maxLength: 2048 }).map((bytes) => Buffer.from(bytes));
  const file = (field: string, bytes: Buffer | 'image'): FilePart => ({
    field,
    filename: 'x.png',
    contentType: 'image/png',
    bytes,
  });
  const first = fileFields[0] ?? 'file';
  const variants: fc.Arbitrary<SpoiledForm>[] = [
    fc
      .tuple(fc.constantFrom(...fileFields), junk)
      .map(([field, bytes]) => ({ kind: 'multipart-junk-file', files: [file(field, bytes)] })),
    fc.constant({ kind: 'multipart-unknown-file', files: [file('unexpected', 'image')] }),
    fc.constant({
      kind: 'multipart-too-many-files',
      files: [...fileFields, ...fileFields, 'extra'].map((field) => file(field, 'image')),
    }),
    fc.constant({ kind: 'multipart-truncated', files: [file(first, 'image')], truncated: true }),
    fc.constant({
      kind: 'multipart-wrong-boundary',
      files: [],
      headerBoundary: 'not-the-boundary',
    }),
    fc.constantFrom(...oddText).map((text) => ({
      kind: 'multipart-odd-field',
      files: [],
      fields: [
        ['body', text],
        ['alt0', text],
      ],
    })),
  ];
  return fc.oneof(...variants).map((spoiled) => (r: FuzzRequest): FuzzRequest => ({
    ...r,
    kind: spoiled.kind,
    body: {
      kind: 'multipart',
      fields: spoiled.fields ?? [['body', 'hello']],
      files: spoiled.files,
      ...(spoiled.truncated ? { truncated: true } : {}),
      ...(spoiled.headerBoundary ? { headerBoundary: spoiled.headerBoundary } : {}),
    },
  }));
}

// ---------------------------------------------------------------------------------------------------
// Valid requests, from the document's parameters and request bodies.
// ---------------------------------------------------------------------------------------------------

function validRequest(
  schemas: SchemaArbitraries,
  endpoint: Endpoint,
  operation: OperationObject,
): fc.Arbitrary<FuzzRequest> {
  const parameters: ParameterObject[] = operation.parameters ?? [];
  const pathModel = Object.fromEntries(
    parameters
      .filter((parameter) => parameter.in === 'path')
      .map((parameter) => [parameter.name, schemas.valid(parameter.schema, parameter.name)]),
  );
  const query = parameters
    .filter((parameter) => parameter.in === 'query')
    .map((parameter): fc.Arbitrary<[string, unknown][]> => {
      const entry = schemas
        .valid(parameter.schema, parameter.name)
        .map((value): [string, unknown][] => [[parameter.name, value]]);
      return parameter.required ? entry : fc.oneof(entry, fc.constant<[string, unknown][]>([]));
    });
  const content = operation.requestBody?.content ?? {};
  const json = content['application/json']?.schema;
  const multipart = content['multipart/form-data']?.schema;
  const bodies: fc.Arbitrary<Body>[] = [];
  if (json) bodies.push(schemas.valid(json).map((value): Body => ({ kind: 'json', value })));
  if (multipart && endpoint.form) {
    const files = endpoint.form.files;
    const fields = schemas.valid({
      ...multipart,
      properties: Object.fromEntries(
        Object.entries(multipart.properties ?? {}).filter(([name]) => !files.includes(name)),
      ),
    });
    bodies.push(
      fc.tuple(fields, fc.subarray([...files], { maxLength: 1 })).map(([values, chosen]): Body => ({
        kind: 'multipart',
        fields: Object.entries(values as Record<string, unknown>).filter(
          ([, value]) => value !== null && value !== undefined,
        ),
        files: chosen.map((field) => ({
          field,
          filename: 'photo.png',
          contentType: 'image/png',
          bytes: 'image',
        })),
      })),
    );
  }
  return fc
    .record({
      params: fc.record(pathModel),
      query: fc.tuple(...query).map((entries) => entries.flat()),
      body: bodies.length > 0 ? fc.oneof(...bodies) : fc.constant<Body>({ kind: 'none' }),
    })
    .map((parts): FuzzRequest => ({ kind: 'valid', ...parts }));
}

// ---------------------------------------------------------------------------------------------------
// The run.
// ---------------------------------------------------------------------------------------------------

interface Session {
  cookie: string;
  uid: string;
  username: string;
  email: string;
  password: string;
  dead: boolean;
}

/** The `name=value` pairs of an answer's cookies that set a value (a cleared cookie is left out). */
function cookiesOf(answer: Answer): string {
  const setCookie = answer.headers['set-cookie'] ?? [];
  return setCookie
    .map((line) => line.split(';')[0] ?? '')
    .filter((pair) => /^[^=]+=.+/.test(pair))
    .join('; ');
}

function json(answer: Answer): unknown {
  return JSON.parse(answer.body.toString('utf8'));
}

const seed = Number(process.env.FUZZ_SEED ?? Math.floor(Math.random() * 2 ** 31));

describe('contract fuzzing', () => {
  let t: TestApp;
  let baseUrl: string;
  let document: OpenApiDocument;
  let schemas: SchemaArbitraries;
  let image: Buffer;
  let me: Session;
  const pools: Pools = {
    postId: [],
    commentId: [],
    uid: [],
    username: [],
    sessionId: [],
    email: [],
  };
  const statusCounts = new Map<number, number>();
  let requests = 0;
  let validRequests = 0;
  let validAccepted = 0;
  /** Requests refused unread whose connection closed before the client read the answer, by how. */
  const closedCounts = new Map<string, number>();

  async function call(method: string, path: string, body?: unknown, cookie?: string) {
    const headers: Record<string, string> = { origin: testOrigin };
    if (cookie) headers.cookie = cookie;
    if (body !== undefined) headers['content-type'] = 'application/json';
    const answer = await send(baseUrl, {
      method,
      path,
      headers,
      ...(body === undefined ? {} : { body: Buffer.from(JSON.stringify(body)) }),
    });
    if ('closed' in answer) throw new Error(`${method} ${path}: no answer (${answer.closed})`);
    return answer;
  }

  async function signUp(): Promise<Session> {
    const tag = randomBytes(5).toString('hex');
    const input = {
      email: `fuzz_${tag}@example.test`,
      username: `fuzz_${tag}`,
      // Out of the generated space: no generator sees it, and requests holding it are never sent.
      password: `fuzz password ${randomBytes(16).toString('hex')}`,
      firstName: 'Fuzz',
      lastName: 'Tester',
    };
    const answer = await call('POST', '/api/auth/sign-up', input);
    if (answer.status !== 201)
      throw new Error(`sign-up failed: ${answer.status} ${answer.body.toString()}`);
    const { user } = json(answer) as { user: { uid: string } };
    return { ...input, uid: user.uid, cookie: cookiesOf(answer), dead: false };
  }

  /** The id in a created answer; anything else stops the run, which could not reach the handlers. */
  function createdId(answer: Answer): string {
    if (answer.status !== 201) {
      throw new Error(`seeding failed: ${answer.status} ${answer.body.toString('utf8')}`);
    }
    return (json(answer) as { id: string }).id;
  }

  /** A post, a comment and a reply of each seeded user, and the sessions of the fuzzing one. */
  async function seedData(users: Session[]): Promise<void> {
    pools.postId = [];
    pools.commentId = [];
    for (const user of users) {
      const post = await call(
        'POST',
        '/api/posts',
        { body: `Seed post of ${user.username} #fuzz` },
        user.cookie,
      );
      const id = createdId(post);
      const comment = await call(
        'POST',
        `/api/posts/${id}/comments`,
        { body: 'A seed comment' },
        user.cookie,
      );
      const commentId = createdId(comment);
      const reply = await call(
        'POST',
        `/api/posts/${id}/comments`,
        { body: 'A reply', parentId: commentId },
        user.cookie,
      );
      const replyId = createdId(reply);
      pools.postId.push(id);
      pools.commentId.push(commentId, replyId);
    }
    pools.uid = users.map((user) => user.uid);
    pools.username = users.map((user) => user.username);
    pools.email = users.map((user) => user.email);
    await seedSessions();
  }

  async function seedSessions(): Promise<void> {
    const sessions = await call('GET', '/api/account/sessions', undefined, me.cookie);
    pools.sessionId =
      sessions.status === 200
        ? (json(sessions) as { sessions: { id: string }[] }).sessions.map((session) => session.id)
        : ['no-session'];
  }

  let other: Session;

  /** Signs the fuzzing user in again when a request ended its session; a fresh user if it cannot. */
  async function ensureSession(): Promise<void> {
    if (!me.dead) return;
    const answer = await call('POST', '/api/auth/sign-in', {
      identifier: me.email,
      password: me.password,
    });
    if (answer.status === 200) {
      me = { ...me, cookie: cookiesOf(answer), dead: false };
      await seedSessions();
    } else {
      me = await signUp();
      await seedData([me, other]);
    }
  }

  beforeAll(async () => {
    const [sqlite] = databaseTargets;
    if (!sqlite) throw new Error('no SQLite target');
    t = await createTestApp(sqlite, { RATE_LIMITS: 'off', LOG_LEVEL: 'silent' });
    baseUrl = await listen(t);
    document = buildOpenApiDocument({ instanceName: 'Fuzz', version: '0', sessionCookie: 'x' });
    schemas = new SchemaArbitraries(document);
    image = await png(16, 12);
    other = await signUp();
    me = await signUp();
    await seedData([me, other]);
  }, 60_000);

  afterAll(async () => {
    agent.destroy();
    await t.close();
    const byStatus = [...statusCounts.entries()]
      .sort(([a], [b]) => a - b)
      .map(([status, count]) => `${status}: ${count}`)
      .join(', ');
    const closed = [...closedCounts.values()].reduce((sum, count) => sum + count, 0);
    const closedHow = [...closedCounts.entries()]
      .map(([how, count]) => `${how}: ${count}`)
      .join(', ');
    // The closing figures of the run, for whoever reads the test output.
    // eslint-disable-next-line no-console
    console.info(
      `contract fuzz (seed ${seed}): ${requests} requests to ${endpointList.length} endpoints (${validRequests} valid, ${requests - validRequests} invalid); ${validAccepted} valid ones answered with their success status; by status: ${byStatus}; ${closed} refused unread and closed before the answer was read${closed > 0 ? ` (${closedHow})` : ''}`,
    );
  });

  /** A deleted seed is made again, so that later requests still reach the handlers. */
  async function reseedAfter(endpoint: Endpoint): Promise<void> {
    if (endpoint.method !== 'DELETE') return;
    const last = /\{(\w+)\}$/.exec(endpoint.path)?.[1];
    const pool = last ? poolOfField[last] : undefined;
    if (pool === 'postId' || pool === 'commentId') await seedData([me, other]);
    if (pool === 'sessionId' && !me.dead) await seedSessions();
  }

  /** Sends one request and returns what is wrong with the answer, if anything. */
  async function check(endpoint: Endpoint, request: FuzzRequest): Promise<string | null> {
    await ensureSession();
    const wire = toWire(endpoint, request, pools, { cookie: me.cookie, image });
    if (wire.body?.includes(me.password) || wire.path.includes(encode(me.password))) {
      throw new Error('a generated request holds the test password');
    }
    const shownPath =
      wire.path.length > 300
        ? `${wire.path.slice(0, 300)}… (${wire.path.length} characters)`
        : wire.path;
    const where = `${wire.method} ${shownPath} [${request.kind}] ${wire.headers['content-type'] ?? ''} ${wire.body?.subarray(0, 200).toString('utf8') ?? ''}`;
    const answer = await send(baseUrl, wire);
    requests += 1;
    if (request.kind === 'valid') validRequests += 1;
    if ('closed' in answer) {
      // Only a request the server refuses unread may see its connection close first; any other is a fault.
      if (!request.refusedUnread) return `${where} → no answer (${answer.closed})`;
      closedCounts.set(answer.closed, (closedCounts.get(answer.closed) ?? 0) + 1);
      return null;
    }
    statusCounts.set(answer.status, (statusCounts.get(answer.status) ?? 0) + 1);
    const documented = documentedResponses(endpoint);
    const text = answer.body.toString('utf8');
    // Sign-out, a revoked session, a password change: whatever ended the session, sign in again.
    if (!request.anonymous && answer.status === 401 && text.includes('"unauthenticated"')) {
      me.dead = true;
    }
    const cleared = (answer.headers['set-cookie'] ?? []).some((line) =>
      /session_token=;|max-age=0/i.test(line),
    );
    if (cleared || (answer.status === 403 && text.includes('"account_inactive"'))) me.dead = true;
    if (answer.status === endpoint.status) {
      if (request.kind === 'valid') validAccepted += 1;
      // Any request that succeeds may have deleted a seed (a DELETE with a body it ignores).
      await reseedAfter(endpoint);
    }

    const said = answer.body.subarray(0, 300).toString('utf8');
    if (answer.status >= 500) return `${where} → ${answer.status} ${said}`;
    if (!documented.has(answer.status)) return `${where} → undocumented ${answer.status} ${said}`;
    const expected = request.expected;
    if (expected && answer.status !== expected.status) {
      return `${where} → ${answer.status} where ${expected.status} was due: ${said}`;
    }
    const schema = documented.get(answer.status);
    if (schema === null || schema === undefined) {
      return answer.body.length === 0 ? null : `${where} → ${answer.status} with a body: ${said}`;
    }
    if (!/^application\/json/.test(answer.headers['content-type'] ?? '')) {
      return `${where} → ${answer.status} as ${answer.headers['content-type'] ?? 'no type'}`;
    }
    let body: unknown;
    try {
      body = json(answer);
    } catch {
      return `${where} → ${answer.status} with a body that is not JSON: ${said}`;
    }
    const parsed = schema.safeParse(body);
    if (!parsed.success) {
      return `${where} → ${answer.status} does not match its schema: ${parsed.error.message.slice(0, 500)}`;
    }
    const code = errorBodySchema.safeParse(body).data?.error.code;
    if (expected?.code !== undefined && code !== expected.code) {
      return `${where} → ${answer.status} without the code ${expected.code}: ${said}`;
    }
    return null;
  }

  it('builds requests from the document for every endpoint', () => {
    for (const endpoint of endpointList) {
      const operation = document.paths[endpoint.path]?.[endpoint.method.toLowerCase() as 'get'];
      expect(operation?.operationId, endpoint.id).toBe(endpoint.id);
    }
  });

  for (const endpoint of endpointList) {
    it(`${endpoint.id}: every answer is documented`, async () => {
      const operation = document.paths[endpoint.path]?.[endpoint.method.toLowerCase() as 'get'];
      if (!operation) throw new Error(`${endpoint.id} is not in the document`);
      const valid = validRequest(schemas, endpoint, operation);
      const invalid = fc
        .tuple(valid, fc.oneof(...spoilers(endpoint, operation)))
        .map(([request, spoil]) => {
          const spoiled = spoil(request);
          // A spoiler with nothing to spoil (no JSON field to drop) leaves a valid request, not counted as one.
          return spoiled.kind === 'valid' ? { ...spoiled, kind: 'unspoiled' } : spoiled;
        });
      const offset = endpointList.indexOf(endpoint);
      const generated = [
        ...fc.sample(valid, { numRuns: validRuns, seed: seed + offset }),
        ...fc.sample(invalid, { numRuns: invalidRuns, seed: seed + offset + 7919 }),
      ];
      const problems: string[] = [];
      for (const request of generated) {
        const problem = await check(endpoint, request);
        if (problem) problems.push(problem);
      }
      expect(problems, `seed ${seed}`).toEqual([]);
    }, 90_000);
  }

  it('reached the handlers with many of the valid requests', () => {
    // A generator that drifted from the schemas would send only requests the server refuses; some valid
    // requests cannot succeed (they need the password or a mailed token, or name another's post).
    expect(validRequests).toBe(validRuns * endpointList.length);
    expect(validAccepted).toBeGreaterThan(validRequests / 4);
  });
});
