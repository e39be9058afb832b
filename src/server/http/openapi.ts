import { readFileSync } from 'node:fs';
import { z } from 'zod';
import {
  endpointTags,
  errorStatuses,
  type Endpoint,
  type EndpointTag,
  type ErrorStatus,
} from '../../shared/contract/endpoint.js';
import { endpointList } from '../../shared/contract/index.js';
import { errorBodySchema } from '../../shared/errors.js';
import { limits } from '../../shared/limits.js';
import { topics, type TopicAudience } from '../../shared/contract/topics.js';
import {
  clientMessageSchema,
  heartbeatIntervalMs,
  heartbeatTimeoutMs,
  realtimeCloseCodes,
  realtimePath,
  serverMessageSchema,
  topicName,
  type TopicKind,
} from '../../shared/realtime.js';
import * as accountEndpoints from '../../shared/contract/endpoints/account.js';
import * as authEndpoints from '../../shared/contract/endpoints/auth.js';
import * as commentEndpoints from '../../shared/contract/endpoints/comments.js';
import * as followEndpoints from '../../shared/contract/endpoints/follows.js';
import * as instanceEndpoints from '../../shared/contract/endpoints/instance.js';
import * as postEndpoints from '../../shared/contract/endpoints/posts.js';
import * as profileEndpoints from '../../shared/contract/endpoints/profiles.js';
import * as userEndpoints from '../../shared/contract/endpoints/users.js';
import * as accountSchemas from '../../shared/schemas/account.js';
import * as authSchemas from '../../shared/schemas/auth.js';
import * as followSchemas from '../../shared/schemas/follow.js';
import * as instanceSchemas from '../../shared/schemas/instance.js';
import * as postSchemas from '../../shared/schemas/post.js';
import * as profileSchemas from '../../shared/schemas/profile.js';
import * as reportSchemas from '../../shared/schemas/report.js';
import * as userSchemas from '../../shared/schemas/user.js';
import { acceptedFormatsText } from '../media/image-pipeline.js';

/** A JSON Schema (draft 2020-12, the dialect of OpenAPI 3.1 §4.8.24). */
export type JsonSchema = z.core.JSONSchema.BaseSchema;

type Reference = { $ref: string };

export interface ParameterObject {
  name: string;
  in: 'path' | 'query';
  required: boolean;
  description: string;
  schema: JsonSchema;
}

export interface MediaTypeObject {
  schema: JsonSchema;
}

export interface RequestBodyObject {
  required: boolean;
  content: Record<string, MediaTypeObject>;
}

export interface ResponseObject {
  description: string;
  headers?: Record<string, { description: string; schema: JsonSchema }>;
  content?: Record<string, MediaTypeObject>;
}

export interface OperationObject {
  operationId: string;
  summary: string;
  description: string;
  tags: EndpointTag[];
  parameters?: ParameterObject[];
  requestBody?: RequestBodyObject;
  responses: Record<string, ResponseObject | Reference>;
  security?: Record<string, string[]>[];
}

type Method = 'get' | 'post' | 'put' | 'patch' | 'delete';

export interface OpenApiDocument {
  openapi: '3.1.1';
  info: { title: string; version: string; description: string };
  servers: { url: string; description: string }[];
  tags: { name: EndpointTag; description: string }[];
  paths: Record<string, Partial<Record<Method, OperationObject>>>;
  components: {
    schemas: Record<string, JsonSchema>;
    responses: Record<string, ResponseObject>;
    securitySchemes: Record<
      string,
      { type: 'apiKey'; in: 'cookie'; name: string; description: string }
    >;
  };
}

export interface OpenApiOptions {
  /** The instance's name: the document's title. */
  instanceName: string;
  /** The application's version (package.json). */
  version: string;
  /** The session cookie's name as Better Auth sets it (`hearth.session_token`, `__Host-` over https). */
  sessionCookie: string;
  /** The endpoints to document; the whole registry by default. */
  endpoints?: readonly Endpoint[];
}

/** Where the document and its reader are served. */
export const openApiPath = '/api/openapi.json';
export const apiDocsPath = '/api/docs';

const sessionScheme = 'session';
const componentPrefix = '#/components/schemas/';

const tagDescriptions: Record<EndpointTag, string> = {
  Auth: 'Sign up, sign in and out, the current session, and password reset by mail.',
  Account:
    'The signed-in person’s own account: email and password changes, signed-in devices, deletion.',
  Users: 'User documents, looked up by id or username.',
  Profiles: 'Editing one’s profile: names, username, bio, website, avatar and cover images.',
  Follows: 'Following and unfollowing people, relationships, follower and following lists.',
  Posts: 'Posts with up to four images, the feed, edits and their history, and likes.',
  Comments: 'Comments on posts, one level of replies, and comment likes.',
  Notifications:
    'The viewer’s notifications, grouped, with their unread count; which kinds they get in the app and by mail; mail unsubscribe links.',
  Search: 'People by name as they type, posts by their words, and the day’s most used tags.',
  Relationships: 'Blocking and muting people: who you block or mute, and for how long.',
  Reports: 'Reporting a post, comment or profile to the moderators, and what became of it.',
  Moderation:
    'The moderators’ console: the reports queue, removing content, warnings, suspensions, appeals and the audit log.',
  Administration:
    'People, roles and the instance’s settings and rules, for moderators and administrators; the dashboard and page-performance reports.',
  Instance: 'This installation: its name and settings, legal pages, health and readiness probes.',
};

/** What each error status means here; every one carries the `Error` body. */
const errorResponses: Record<ErrorStatus, { name: string; description: string; retry?: true }> = {
  400: {
    name: 'BadRequest',
    description:
      'The input failed its schema (`validation_failed`, with a message per field in `fields`), or the request could not be read (`bad_request`: malformed JSON, address or form; `invalid_token`: an expired or used link).',
  },
  401: {
    name: 'Unauthenticated',
    description:
      'No valid session (`unauthenticated`): sign in first; or, on sign-in, the credentials do not match (`invalid_credentials`).',
  },
  403: {
    name: 'Forbidden',
    description:
      'The account awaits activation (`account_inactive`), is suspended (`account_suspended`), lacks the permission (`forbidden`), or the request came from another site (`origin_mismatch`).',
  },
  404: { name: 'NotFound', description: 'The resource does not exist, or is not visible to you.' },
  409: {
    name: 'Conflict',
    description: 'The request conflicts with the current state (`conflict`), such as a name taken.',
  },
  413: {
    name: 'PayloadTooLarge',
    description: `The body is too large (\`payload_too_large\`): JSON bodies are limited to ${limits.jsonBodyBytes / 1024} KiB, uploaded images to ${limits.upload.maxBytes / 1024 / 1024} MB each.`,
  },
  414: {
    name: 'UriTooLong',
    description: 'A part of the address is longer than the server reads (`bad_request`).',
  },
  415: {
    name: 'UnsupportedMediaType',
    description:
      'The body is not `application/json` (or `multipart/form-data` where a form is taken), or an uploaded file is not an accepted image (`unsupported_media_type`).',
  },
  431: {
    name: 'HeadersTooLarge',
    description: 'The request headers are larger than the server reads (`bad_request`).',
  },
  429: {
    name: 'RateLimited',
    description: 'Too many requests (`rate_limited`); `Retry-After` says when to try again.',
    retry: true,
  },
  503: {
    name: 'Unavailable',
    description:
      'A dependency (the database) is briefly unreachable (`unavailable`); `Retry-After` says when to try again.',
    retry: true,
  },
};

const retryAfterHeader = {
  'Retry-After': {
    description: 'Seconds to wait before trying again.',
    schema: { type: 'integer', minimum: 1 } satisfies JsonSchema,
  },
};

const successDescriptions: Record<Endpoint['status'], string> = {
  200: 'OK',
  201: 'Created',
  202: 'Accepted',
  204: 'Done; no content.',
};

const accessNotes: Record<Endpoint['access'], string> = {
  public: 'Open to everyone, signed in or not.',
  'signed-in': 'Needs a session (inactive accounts too).',
  active: 'Needs a session of an active account that is not suspended.',
  moderator: 'Needs a session of an active moderator or administrator.',
  admin: 'Needs a session of an active administrator.',
};

/** Parameters that recur across endpoints, explained once. */
const parameterDescriptions: Record<string, string> = {
  postId: 'The post’s id (a decimal number).',
  commentId: 'The comment’s id (a decimal number).',
  uid: 'The user’s id.',
  username: 'The username, in any case.',
  id: 'The id of the item.',
  cursor: 'Where the page starts: the `nextCursor` of the previous page. Leave out for the first.',
  after: 'Asks for the posts newer than this id instead of a page of older ones.',
  limit: `How many items, ${limits.page.max} at most.`,
  tab: '`everyone` (all posts) or `following` (the people the viewer follows, and their own).',
  tag: 'Only the posts with this hashtag (without `#`).',
};

/**
 * Modules whose exported schemas are named as components: `postViewSchema` is `PostView`. The contract's
 * endpoint modules come too, for the schemas an endpoint defines next to itself.
 */
const schemaModules: Record<string, unknown>[] = [
  accountEndpoints,
  authEndpoints,
  commentEndpoints,
  followEndpoints,
  instanceEndpoints,
  postEndpoints,
  profileEndpoints,
  userEndpoints,
  postSchemas,
  userSchemas,
  followSchemas,
  profileSchemas,
  accountSchemas,
  authSchemas,
  instanceSchemas,
  reportSchemas,
];

/** Names that read better than the export's. */
const componentNames = new Map<z.ZodType, string>([
  [errorBodySchema, 'Error'],
  [clientMessageSchema, 'RealtimeClientMessage'],
  [serverMessageSchema, 'RealtimeServerMessage'],
]);

function capitalise(word: string): string {
  return word.charAt(0).toUpperCase() + word.slice(1);
}

/**
 * The registry zod extracts components from. Documents, bodies and enums get names; strings stay inline
 * where they are used, and path and query objects become parameters, so they are left out.
 */
function componentRegistry() {
  const registry = z.registry<{ id: string }>();
  for (const module of schemaModules) {
    for (const [exportName, value] of Object.entries(module)) {
      if (!(value instanceof z.ZodType) || componentNames.has(value)) continue;
      const match = /^(\w+?)Schema$/.exec(exportName);
      if (!match?.[1] || /(Params|Query)$/.test(match[1])) continue;
      const named =
        value instanceof z.ZodObject || value instanceof z.ZodUnion || value instanceof z.ZodEnum;
      if (!named || registry.has(value)) continue;
      registry.add(value, { id: capitalise(match[1]) });
    }
  }
  for (const [schema, id] of componentNames) registry.add(schema, { id });
  // Each live topic's document (ADR 0013), under the name of the document it is when it has one.
  for (const [kind, topic] of Object.entries(topics)) {
    if (!registry.has(topic.document))
      registry.add(topic.document, { id: `${capitalise(kind)}Topic` });
  }
  return registry;
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/**
 * A deep copy of `value` with every `$ref` to `#/$defs/<id>` pointing at the component `names(id)`. In
 * answers, the safe-integer range zod puts on every integer is left out: our counts and sizes never come
 * near it, and it would repeat on every one of them. Requests keep it, since the server refuses past it.
 */
function rewriteRefs<T>(value: T, names: (id: string) => string, io: 'input' | 'output'): T {
  if (Array.isArray(value)) return value.map((item: unknown) => rewriteRefs(item, names, io)) as T;
  if (!isRecord(value)) return value;
  const copy: Record<string, unknown> = {};
  for (const [key, item] of Object.entries(value)) {
    if (key === '$ref' && typeof item === 'string' && item.startsWith('#/$defs/')) {
      copy[key] = `${componentPrefix}${names(item.slice('#/$defs/'.length))}`;
    } else if (
      io === 'output' &&
      ((key === 'minimum' && item === Number.MIN_SAFE_INTEGER) ||
        (key === 'maximum' && item === Number.MAX_SAFE_INTEGER))
    ) {
      continue;
    } else {
      copy[key] = rewriteRefs(item, names, io);
    }
  }
  return copy as T;
}

function sameJson(a: unknown, b: unknown): boolean {
  return JSON.stringify(a) === JSON.stringify(b);
}

/**
 * Converts zod schemas with zod's own JSON Schema conversion and gathers the named ones as components.
 * A named schema whose input form differs from its output form (defaults, transforms) gets the component
 * `<Name>Input` for the request side.
 */
class SchemaCollector {
  readonly schemas: Record<string, JsonSchema> = {};
  readonly #registry = componentRegistry();
  readonly #plain = z.registry<{ id: string }>();

  /** The JSON Schema of `schema` as a request (`input`) or an answer (`output`) sees it. */
  convert(schema: z.ZodType, io: 'input' | 'output', options: { inline?: boolean } = {}) {
    const converted = z.toJSONSchema(schema, {
      target: 'draft-2020-12',
      io,
      metadata: options.inline ? this.#plain : this.#registry,
      // A schema the document cannot describe is an error to fix in the contract, not to paper over.
      unrepresentable: 'throw',
      // Our registry only names components: descriptions given with `.describe()` or `.meta()` live in
      // zod's global one, and are carried over from there.
      override: ({ zodSchema, jsonSchema }) => {
        const description = z.globalRegistry.get(zodSchema)?.description;
        if (description && jsonSchema.description === undefined) {
          jsonSchema.description = description;
        }
      },
    });
    const { $schema: _dialect, $defs, ...root } = converted;
    const defs = Object.entries($defs ?? {});
    const names = new Map(defs.map(([id]) => [id, id]));
    const nameOf = (id: string) => names.get(id) ?? id;
    // Renaming one definition can change the content of those that refer to it: repeat until stable.
    for (let changed = true, round = 0; changed; round += 1) {
      if (round > defs.length) throw new Error('component names do not settle');
      changed = false;
      for (const [id, def] of defs) {
        const name = nameOf(id);
        const existing = this.schemas[name];
        if (existing && !sameJson(existing, rewriteRefs(def, nameOf, io))) {
          if (name !== id) throw new Error(`two different schemas want the component ${name}`);
          names.set(id, `${id}${io === 'input' ? 'Input' : 'Output'}`);
          changed = true;
        }
      }
    }
    for (const [id, def] of defs) this.schemas[nameOf(id)] ??= rewriteRefs(def, nameOf, io);
    return rewriteRefs(root as JsonSchema, nameOf, io);
  }

  /** The component a `$ref` names, or the schema itself. */
  resolve(schema: JsonSchema): JsonSchema {
    const ref = schema.$ref;
    if (typeof ref !== 'string' || !ref.startsWith(componentPrefix)) return schema;
    const target = this.schemas[ref.slice(componentPrefix.length)];
    if (!target) throw new Error(`unknown component ${ref}`);
    return this.resolve(target);
  }
}

function humanise(name: string): string {
  const words = name.replace(/([a-z0-9])([A-Z])/g, '$1 $2').toLowerCase();
  return `The ${words}.`;
}

/** One parameter per property of a params or query object. */
function parameters(
  collector: SchemaCollector,
  schema: z.ZodType,
  where: 'path' | 'query',
  endpoint: Endpoint,
): ParameterObject[] {
  const object = collector.resolve(collector.convert(schema, 'input'));
  if (object.type !== 'object' || !isRecord(object.properties)) {
    throw new Error(`${endpoint.id}: the ${where} schema must be an object`);
  }
  const required = new Set(Array.isArray(object.required) ? object.required : []);
  return Object.entries(object.properties).map(([name, property]) => {
    const { description, ...rest } = property as JsonSchema;
    return {
      name,
      in: where,
      required: where === 'path' || required.has(name),
      description: description ?? parameterDescriptions[name] ?? humanise(name),
      schema: rest,
    };
  });
}

/** The JSON body, or the form as JSON and as multipart/form-data with its file fields. */
function requestBody(
  collector: SchemaCollector,
  endpoint: Endpoint,
): RequestBodyObject | undefined {
  if (endpoint.body) {
    return {
      required: !endpoint.body.safeParse(undefined).success,
      content: { 'application/json': { schema: collector.convert(endpoint.body, 'input') } },
    };
  }
  const form = endpoint.form;
  if (!form) return undefined;
  // Inline, so that the file fields sit next to the text fields in one object a form can be drawn from.
  const fields = collector.convert(form.fields, 'input', { inline: true });
  const files = Object.fromEntries(
    form.files.map((name) => [
      name,
      {
        type: 'string',
        format: 'binary',
        description: `An image file (${acceptedFormatsText}), ${limits.upload.maxBytes / 1024 / 1024} MB at most.`,
      } satisfies JsonSchema,
    ]),
  );
  const properties = isRecord(fields.properties) ? fields.properties : {};
  return {
    required: true,
    content: {
      'application/json': { schema: collector.convert(form.fields, 'input') },
      'multipart/form-data': { schema: { ...fields, properties: { ...properties, ...files } } },
    },
  };
}

function operationDescription(endpoint: Endpoint): string {
  const notes = [accessNotes[endpoint.access]];
  if (endpoint.form) {
    const megabytes = (endpoint.form.maxBytes / 1024 / 1024).toFixed(1);
    notes.push(`A multipart body may hold up to ${megabytes} MB in all.`);
  }
  if (endpoint.rateLimit?.length) {
    notes.push(`Rate-limited (${endpoint.rateLimit.map((name) => `\`${name}\``).join(', ')}).`);
  }
  return [endpoint.description ?? endpoint.summary, notes.join(' ')].join('\n\n');
}

/**
 * Every status an endpoint documents, with the schema of its body (null for a 204): the success answer,
 * then each error status with the one error shape, or its `otherResponses` schema (which the error shape
 * may still answer too, as `serve` allows).
 */
export function documentedResponses(endpoint: Endpoint): Map<number, z.ZodType | null> {
  const responses = new Map<number, z.ZodType | null>([
    [endpoint.status, endpoint.status === 204 ? null : endpoint.response],
  ]);
  for (const status of errorStatuses(endpoint)) responses.set(status, errorBodySchema);
  for (const [status, schema] of Object.entries(endpoint.otherResponses ?? {})) {
    responses.set(Number(status), z.union([schema, errorBodySchema]));
  }
  return responses;
}

function isErrorStatus(status: number): status is ErrorStatus {
  return status in errorResponses;
}

function operation(collector: SchemaCollector, endpoint: Endpoint): OperationObject {
  const responses: OperationObject['responses'] = {};
  for (const [status, schema] of documentedResponses(endpoint)) {
    const known = isErrorStatus(status) ? errorResponses[status] : undefined;
    if (known && schema === errorBodySchema) {
      responses[status] = { $ref: `#/components/responses/${known.name}` };
      continue;
    }
    responses[status] = {
      description: known
        ? 'This body (see the description), or the error shape when the request itself failed.'
        : successDescriptions[endpoint.status],
      ...(known?.retry ? { headers: retryAfterHeader } : {}),
      ...(schema
        ? { content: { 'application/json': { schema: collector.convert(schema, 'output') } } }
        : {}),
    };
  }
  return {
    operationId: endpoint.id,
    summary: endpoint.summary,
    description: operationDescription(endpoint),
    tags: [endpoint.tag],
    responses,
    // An empty requirement makes the cookie optional: public answers are personalised when it comes.
    security:
      endpoint.access === 'public' ? [{}, { [sessionScheme]: [] }] : [{ [sessionScheme]: [] }],
  };
}

/** How a topic's key reads in its name pattern. */
const topicKeyNames: Partial<Record<TopicKind, string>> = { user: 'uid', post: 'id' };

const audienceNotes: Record<TopicAudience, string> = {
  public: 'anyone may subscribe',
  self: 'only the signed-in account whose uid is the key',
  staff: 'only active moderators and administrators',
};

/** The WebSocket, its messages and every topic of the registry (contract/topics.ts). */
function realtimeDescription(
  topicDocuments: { pattern: string; audience: TopicAudience; schema: string }[],
) {
  return [
    `## Live updates: \`${realtimePath}\``,
    '',
    `One WebSocket per tab at \`${realtimePath}\` carries every live document. Open it from this site (the \`Origin\` header must be this instance's), with the session cookie to see the documents as yourself. Send JSON messages (schema \`RealtimeClientMessage\`):`,
    '',
    '- `{"type":"subscribe","topic":"…"}` and `{"type":"unsubscribe","topic":"…"}`;',
    `- \`{"type":"ping"}\` every ${heartbeatIntervalMs / 1000} s: without a \`pong\` within ${heartbeatTimeoutMs / 1000} s, reconnect.`,
    '',
    'The server sends (schema `RealtimeServerMessage`):',
    '',
    '- `{"type":"doc","topic","data"}`: the whole document once on subscribe, then again after every change (`null` when it does not exist or was deleted);',
    '- `{"type":"pong"}`;',
    '- `{"type":"error","topic"?,"code","message"}` for a refused message or subscription;',
    '- `{"type":"session","state":"ended"}` when the session the socket was opened with ends: the socket goes on as a signed-out visitor’s, and topics only an account may follow are dropped.',
    '',
    'Topics, and the schema of their documents:',
    '',
    topicDocuments
      .map(
        ({ pattern, audience, schema }) =>
          `- \`${pattern}\` (${audienceNotes[audience]}): \`${schema}\``,
      )
      .join(';\n') + '.',
    '',
    `Close codes: ${realtimeCloseCodes.normal} (normal), ${realtimeCloseCodes.goingAway} (the server is going away), ${realtimeCloseCodes.tooBig} (a message was too big) and ${realtimeCloseCodes.policy} (refused: do not reconnect). Reconnect after any but ${realtimeCloseCodes.policy}.`,
  ].join('\n');
}

/** The topics of the registry with their name patterns and document components. */
function topicDocuments(collector: SchemaCollector) {
  return (Object.keys(topics) as TopicKind[]).map((kind) => {
    const topic = topics[kind];
    const converted = collector.convert(topic.document, 'output');
    const ref = typeof converted.$ref === 'string' ? converted.$ref : '';
    return {
      // Single topics ignore the key they are named with.
      pattern: topicName(kind, `{${topicKeyNames[kind] ?? 'key'}}`),
      audience: topic.audience,
      schema: ref.slice(componentPrefix.length),
    };
  });
}

function infoDescription(realtime: string): string {
  return [
    'The HTTP API of this Hearth instance. The web app uses exactly these endpoints, and so can you.',
    '',
    '## Conventions',
    '',
    '- **Sessions.** `POST /api/auth/sign-in` (or sign-up) sets an HttpOnly session cookie; send it back with every request. There are no API keys.',
    "- **Origin.** Every request that changes something (`POST`, `PUT`, `PATCH`, `DELETE`) must carry this instance's `Origin` header, as browsers do; others are refused with 403 `origin_mismatch`.",
    '- **Errors.** Every failure answers one shape, `{"error":{"code","message","fields"?}}` (schema `Error`); `fields` names the form fields at fault.',
    '- **Lists** come a page at a time (`items`, `nextCursor`): pass `nextCursor` back as `cursor` for the next page; it is `null` on the last.',
    '- **Rate limits** answer 429 with `Retry-After`.',
    '',
    realtime,
  ].join('\n');
}

/**
 * The OpenAPI 3.1 document of the API, generated from the endpoint registry (ADR 0012): one operation per
 * endpoint, request parts from the schemas' input side and answers from their output side.
 */
export function buildOpenApiDocument(options: OpenApiOptions): OpenApiDocument {
  const endpoints = options.endpoints ?? endpointList;
  const collector = new SchemaCollector();
  // Answers first, so that documents keep their plain names and only differing request forms get `Input`.
  const operations = endpoints.map((endpoint) => ({
    endpoint,
    operation: operation(collector, endpoint),
  }));
  collector.convert(errorBodySchema, 'output');
  const realtime = realtimeDescription(topicDocuments(collector));
  // Both sides of the socket as they travel: the input side of each schema is the wire form.
  collector.convert(clientMessageSchema, 'input');
  collector.convert(serverMessageSchema, 'input');

  const paths: OpenApiDocument['paths'] = {};
  for (const { endpoint, operation: entry } of operations) {
    const params = endpoint.params ? parameters(collector, endpoint.params, 'path', endpoint) : [];
    const query = endpoint.query ? parameters(collector, endpoint.query, 'query', endpoint) : [];
    const body = requestBody(collector, endpoint);
    const item = (paths[endpoint.path] ??= {});
    item[endpoint.method.toLowerCase() as Method] = {
      operationId: entry.operationId,
      summary: entry.summary,
      description: entry.description,
      tags: entry.tags,
      ...(params.length + query.length > 0 ? { parameters: [...params, ...query] } : {}),
      ...(body ? { requestBody: body } : {}),
      responses: entry.responses,
      ...(entry.security ? { security: entry.security } : {}),
    };
  }

  const responses: Record<string, ResponseObject> = {};
  for (const { name, description, retry } of Object.values(errorResponses)) {
    responses[name] = {
      description,
      ...(retry ? { headers: retryAfterHeader } : {}),
      content: { 'application/json': { schema: { $ref: `${componentPrefix}Error` } } },
    };
  }

  return {
    openapi: '3.1.1',
    info: {
      title: `${options.instanceName} API`,
      version: options.version,
      description: infoDescription(realtime),
    },
    servers: [{ url: '/', description: 'This instance' }],
    tags: endpointTags.map((name) => ({ name, description: tagDescriptions[name] })),
    paths,
    components: {
      schemas: Object.fromEntries(
        Object.entries(collector.schemas).sort(([a], [b]) => a.localeCompare(b)),
      ),
      responses,
      securitySchemes: {
        [sessionScheme]: {
          type: 'apiKey',
          in: 'cookie',
          name: options.sessionCookie,
          description:
            'The HttpOnly session cookie set by sign-in and sign-up; browsers send it by themselves.',
        },
      },
    },
  };
}

/** The application's version, from package.json (the same two folders up from src/ and from dist/). */
export function appVersion(): string {
  const text = readFileSync(new URL('../../../package.json', import.meta.url), 'utf8');
  const parsed = z.object({ version: z.string() }).parse(JSON.parse(text));
  return parsed.version;
}
