import { Validator } from '@seriousme/openapi-schema-validator';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { defineEndpoint, endpointTags, errorStatuses } from '../../shared/contract/endpoint.js';
import { endpointList } from '../../shared/contract/index.js';
import { topics } from '../../shared/contract/topics.js';
import { topicName, type TopicKind } from '../../shared/realtime.js';
import { changePasswordBodySchema } from '../../shared/schemas/account.js';
import { createPostSchema, postIdParamsSchema, postViewSchema } from '../../shared/schemas/post.js';
import {
  appVersion,
  buildOpenApiDocument,
  documentedResponses,
  type JsonSchema,
  type OpenApiDocument,
  type OperationObject,
} from './openapi.js';

const options = {
  instanceName: 'Hearth Test',
  version: '9.8.7',
  sessionCookie: 'hearth.session_token',
};
const document = buildOpenApiDocument(options);

/** Every operation of a document, by operationId. */
function operations(
  doc: OpenApiDocument,
): Map<string, { method: string; path: string; operation: OperationObject }> {
  const found = new Map<string, { method: string; path: string; operation: OperationObject }>();
  for (const [path, item] of Object.entries(doc.paths)) {
    for (const [method, operation] of Object.entries(item)) {
      expect(found.has(operation.operationId), operation.operationId).toBe(false);
      found.set(operation.operationId, { method, path, operation });
    }
  }
  return found;
}

/** Every `$ref` string anywhere in a value. */
function refs(value: unknown, into: string[] = []): string[] {
  if (Array.isArray(value)) for (const item of value) refs(item, into);
  else if (typeof value === 'object' && value !== null) {
    for (const [key, item] of Object.entries(value)) {
      if (key === '$ref' && typeof item === 'string') into.push(item);
      else refs(item, into);
    }
  }
  return into;
}

function resolvePointer(doc: OpenApiDocument, ref: string): unknown {
  expect(ref.startsWith('#/'), ref).toBe(true);
  let node: unknown = doc;
  for (const part of ref.slice(2).split('/')) {
    node = (node as Record<string, unknown> | undefined)?.[part];
  }
  return node;
}

describe('the OpenAPI document', () => {
  it('is valid OpenAPI 3.1 for the whole registry', async () => {
    const validator = new Validator();
    // A JSON round trip: the document is served as JSON, and the validator must see what clients see.
    const result = await validator.validate(
      JSON.parse(JSON.stringify(document)) as Record<string, unknown>,
    );
    expect(result.errors ?? [], JSON.stringify(result.errors, null, 2)).toEqual([]);
    expect(result.valid).toBe(true);
    expect(validator.version).toBe('3.1');
  });

  it('has the instance name, the version, a relative server and the tags in order', () => {
    expect(document.info.title).toBe('Hearth Test API');
    expect(document.info.version).toBe('9.8.7');
    expect(document.servers).toEqual([{ url: '/', description: 'This instance' }]);
    expect(document.tags.map((tag) => tag.name)).toEqual([...endpointTags]);
    for (const tag of document.tags) expect(tag.description.length).toBeGreaterThan(20);
  });

  it('reads the version from package.json', () => {
    expect(appVersion()).toMatch(/^\d+\.\d+\.\d+/);
  });

  it('has one operation per endpoint, at its method and path, with its documented statuses', () => {
    const found = operations(document);
    expect([...found.keys()].sort()).toEqual(endpointList.map((endpoint) => endpoint.id).sort());
    for (const endpoint of endpointList) {
      const entry = found.get(endpoint.id);
      if (!entry) throw new Error(`${endpoint.id} is missing`);
      const { method, path, operation } = entry;
      expect(method).toBe(endpoint.method.toLowerCase());
      expect(path).toBe(endpoint.path);
      expect(operation.summary).toBe(endpoint.summary);
      expect(operation.tags).toEqual([endpoint.tag]);
      expect(operation.description).toContain(endpoint.description ?? endpoint.summary);
      expect(Object.keys(operation.responses).map(Number).sort()).toEqual(
        [...documentedResponses(endpoint).keys()].sort(),
      );
      for (const status of errorStatuses(endpoint)) {
        expect(operation.responses[status], `${endpoint.id} ${status}`).toBeDefined();
      }
      const cookie = { session: [] };
      expect(operation.security).toEqual(endpoint.access === 'public' ? [{}, cookie] : [cookie]);
    }
  });

  it('names the session cookie in a cookie security scheme', () => {
    expect(Object.keys(document.components.securitySchemes)).toEqual(['session']);
    expect(document.components.securitySchemes.session).toMatchObject({
      type: 'apiKey',
      in: 'cookie',
      name: 'hearth.session_token',
    });
  });

  it('has a parameter for each path parameter and each query field', () => {
    const found = operations(document);
    for (const endpoint of endpointList) {
      const parameters = found.get(endpoint.id)?.operation.parameters ?? [];
      const pathNames = [...endpoint.path.matchAll(/\{(\w+)\}/g)].map((match) => match[1]);
      expect(parameters.filter((p) => p.in === 'path').map((p) => p.name)).toEqual(pathNames);
      for (const parameter of parameters) {
        expect(parameter.description.length, `${endpoint.id} ${parameter.name}`).toBeGreaterThan(0);
        if (parameter.in === 'path') expect(parameter.required).toBe(true);
      }
    }
    const feed = found.get('getFeed')?.operation.parameters ?? [];
    expect(feed.map((p) => [p.name, p.in, p.required])).toEqual([
      ['tab', 'query', false],
      ['tag', 'query', false],
      ['cursor', 'query', false],
      ['after', 'query', false],
      ['limit', 'query', false],
    ]);
    expect(feed.find((p) => p.name === 'limit')?.schema).toMatchObject({
      type: 'integer',
      minimum: 1,
      maximum: 50,
      default: 20,
    });
  });

  it('documents a form as JSON and as multipart with binary file fields', () => {
    const create = operations(document).get('createPost')?.operation;
    const content = create?.requestBody?.content ?? {};
    expect(Object.keys(content)).toEqual(['application/json', 'multipart/form-data']);
    expect(content['application/json']?.schema).toEqual({
      $ref: '#/components/schemas/CreatePost',
    });
    const multipart = content['multipart/form-data']?.schema;
    expect(multipart?.required).toEqual(['body']);
    expect(multipart?.properties).toMatchObject({
      body: { type: 'string' },
      image0: { type: 'string', format: 'binary' },
      image3: { type: 'string', format: 'binary' },
    });
  });

  it('names the main documents as components and refers to them, once each', () => {
    const schemas = document.components.schemas;
    for (const name of [
      'Post',
      'PostView',
      'Comment',
      'Thread',
      'UserDocument',
      'Me',
      'Author',
      'LikeState',
      'PostPage',
      'ThreadPage',
      'CommentPage',
      'AuthorPage',
      'Error',
    ]) {
      expect(schemas[name], name).toBeDefined();
    }
    const found = operations(document);
    const success = (id: string) => {
      const response = found.get(id)?.operation.responses['200'];
      return response && 'content' in response
        ? response.content?.['application/json']?.schema
        : undefined;
    };
    expect(success('getPost')).toEqual({ $ref: '#/components/schemas/PostView' });
    expect(success('getFeed')).toEqual({ $ref: '#/components/schemas/PostPage' });
    expect(schemas.PostPage?.properties).toMatchObject({
      items: { type: 'array', items: { $ref: '#/components/schemas/PostView' } },
    });
    expect(schemas.Thread?.properties).toMatchObject({
      author: { $ref: '#/components/schemas/Author' },
      replies: { items: { $ref: '#/components/schemas/Comment' } },
    });
    // Readable: no component spells out another whole document instead of referring to it.
    const authorJson = JSON.stringify(schemas.Author);
    for (const [name, schema] of Object.entries(schemas)) {
      if (name !== 'Author') expect(JSON.stringify(schema), name).not.toContain(authorJson);
    }
    expect(JSON.stringify(document).length).toBeLessThan(250_000);
  });

  it('answers every error with the one Error schema, through shared responses', () => {
    for (const { operation } of operations(document).values()) {
      for (const [status, response] of Object.entries(operation.responses)) {
        if (Number(status) < 400 || !('$ref' in response)) continue;
        expect(response.$ref).toMatch(/^#\/components\/responses\/\w+$/);
      }
    }
    for (const response of Object.values(document.components.responses)) {
      expect(response.content?.['application/json']?.schema).toEqual({
        $ref: '#/components/schemas/Error',
      });
    }
    expect(document.components.schemas.Error).toMatchObject({
      type: 'object',
      required: ['error'],
    });
    expect(document.components.responses.RateLimited?.headers).toHaveProperty('Retry-After');
  });

  it('resolves every reference', () => {
    for (const ref of refs(document)) expect(resolvePointer(document, ref), ref).toBeDefined();
  });

  it('describes the realtime socket and every topic of the registry', () => {
    const description = document.info.description;
    expect(description).toContain('/api/realtime');
    for (const kind of Object.keys(topics) as TopicKind[]) {
      const pattern = topicName(kind, '{key}').replace('{key}', '{');
      expect(description).toContain(`\`${pattern}`);
    }
    for (const name of [
      'RealtimeClientMessage',
      'RealtimeServerMessage',
      'UserTopic',
      'PostTopic',
    ]) {
      expect(description).toContain(`\`${name}\``);
      expect(document.components.schemas[name], name).toBeDefined();
    }
  });

  it('gives a schema whose request and answer forms differ two components', () => {
    const echo = defineEndpoint({
      id: 'echoPassword',
      method: 'POST',
      path: '/api/echo/{postId}',
      tag: 'Account',
      summary: 'Echo',
      access: 'signed-in',
      params: postIdParamsSchema,
      body: changePasswordBodySchema,
      status: 200,
      response: changePasswordBodySchema,
    });
    const doc = buildOpenApiDocument({ ...options, endpoints: [echo] });
    const schemas = doc.components.schemas;
    // The default makes the flag optional to send, but always present in an answer.
    expect(schemas.ChangePasswordBody?.required).toContain('signOutOtherSessions');
    expect(schemas.ChangePasswordBodyInput?.required).not.toContain('signOutOtherSessions');
    const operation = doc.paths['/api/echo/{postId}']?.post;
    expect(operation?.requestBody?.content['application/json']?.schema).toEqual({
      $ref: '#/components/schemas/ChangePasswordBodyInput',
    });
  });

  it('keeps the descriptions schemas carry, on parameters and fields', () => {
    const described = defineEndpoint({
      id: 'described',
      method: 'GET',
      path: '/api/described/{postId}',
      tag: 'Posts',
      summary: 'Described',
      access: 'public',
      params: z.object({ postId: z.string().describe('Which post.') }),
      query: z.object({ sort: z.enum(['new', 'old']).meta({ description: 'The order.' }) }),
      status: 200,
      response: z.object({ count: z.number().int().describe('How many.') }),
    });
    const doc = buildOpenApiDocument({ ...options, endpoints: [described] });
    const operation = doc.paths['/api/described/{postId}']?.get;
    expect(operation?.parameters?.map((p) => [p.name, p.description, p.required])).toEqual([
      ['postId', 'Which post.', true],
      ['sort', 'The order.', true],
    ]);
    const answer = operation?.responses['200'];
    const schema =
      answer && 'content' in answer ? answer.content?.['application/json']?.schema : {};
    expect(schema?.properties).toEqual({ count: { type: 'integer', description: 'How many.' } });
  });

  it('refuses a schema that JSON Schema cannot describe', () => {
    const broken = defineEndpoint({
      id: 'broken',
      method: 'GET',
      path: '/api/broken',
      tag: 'Instance',
      summary: 'Broken',
      access: 'public',
      status: 200,
      response: z.object({ when: z.date() }),
    });
    expect(() => buildOpenApiDocument({ ...options, endpoints: [broken] })).toThrow();
  });

  it('converts the request schemas from their input side', () => {
    const schema: JsonSchema | undefined = document.components.schemas.CreatePost;
    expect(schema?.required).toEqual(['body']);
    expect(z.toJSONSchema(createPostSchema, { io: 'input' }).required).toEqual(['body']);
    expect(document.components.schemas.PostView?.required).toEqual(
      Object.keys(postViewSchema.shape),
    );
  });
});
