import Fastify, { type FastifyInstance } from 'fastify';
import { validatorCompiler } from 'fastify-type-provider-zod';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { defineEndpoint } from '../../shared/contract/endpoint.js';
import { endpointList } from '../../shared/contract/index.js';
import { errorBodySchema } from '../../shared/errors.js';
import { responseSerializerCompiler, wireSchema } from './serializer.js';
import { responseSchemas, serve } from './serve.js';

const author = z.object({ uid: z.string(), username: z.string() });
const document = z.object({
  id: z.string(),
  count: z.number().int(),
  author: author.nullable(),
  editedAt: z.string().nullable(),
  tags: z.array(z.object({ name: z.string() })),
  note: z.string().optional(),
});

function serializerOf(schema: z.ZodType): (data: unknown) => string {
  return responseSerializerCompiler()({ schema, method: 'GET', url: '/api/test' });
}

describe('the compiled response serializer', () => {
  it("compiles every response of the contract but the readiness probe's 503, left to zod", () => {
    const leftToZod = endpointList.flatMap((endpoint) =>
      Object.entries(responseSchemas(endpoint))
        .filter(([, schema]) => wireSchema(schema) === null)
        .map(([status]) => `${endpoint.id} ${status}`),
    );
    // Its body is the readiness document or the error shape: a union, which zod settles (ADR 0027).
    expect(leftToZod).toEqual(['getReadiness 503']);
  });

  it('leaves a union to zod, which strips the option it matched', () => {
    const schema = z.union([z.object({ a: z.string() }), z.object({ b: z.number() })]);
    expect(wireSchema(schema)).toBeNull();
    expect(serializerOf(schema)({ b: 1, leaked: true })).toBe('{"b":1}');
  });

  it('drops fields the contract does not declare, at every level', () => {
    const serialize = serializerOf(document);
    const body = JSON.parse(
      serialize({
        id: 'p1',
        count: 3,
        author: { uid: 'u1', username: 'ana', email: 'ana@example.com' },
        editedAt: null,
        tags: [{ name: 'x', secret: true }],
        passwordHash: 'leaked',
      }),
    ) as unknown;
    expect(body).toEqual({
      id: 'p1',
      count: 3,
      author: { uid: 'u1', username: 'ana' },
      editedAt: null,
      tags: [{ name: 'x' }],
    });
  });

  it('writes nullable objects and strings as null or as their value, and optional fields when present', () => {
    const serialize = serializerOf(document);
    const withValues = {
      id: 'p2',
      count: 0,
      author: null,
      editedAt: '2026-01-02T03:04:05.000Z',
      tags: [],
      note: 'hi "there"\n',
    };
    expect(JSON.parse(serialize(withValues))).toEqual(withValues);
    // The same text zod's encoder and JSON.stringify give, byte for byte.
    expect(serialize(withValues)).toBe(JSON.stringify(z.encode(document, withValues)));
  });

  it('refuses a body that lacks a required field instead of sending half of it', () => {
    const serialize = serializerOf(document);
    expect(() => serialize({ id: 'p3', count: 1, author: null, tags: [] })).toThrow(/editedAt/);
  });

  it('lets an unknown field be absent, as zod does, and writes it whole when present', () => {
    const serialize = serializerOf(z.object({ id: z.string(), details: z.unknown() }));
    expect(serialize({ id: 'a' })).toBe('{"id":"a"}');
    expect(serialize({ id: 'a', details: { from: [1, 'x'] } })).toBe(
      '{"id":"a","details":{"from":[1,"x"]}}',
    );
  });

  it('leaves a schema whose output is computed to zod, which encodes it', () => {
    const cents = z.codec(z.string(), z.number(), {
      decode: (text) => Number(text),
      encode: (value) => String(value),
    });
    const schema = z.object({ price: cents });
    expect(wireSchema(schema)).toBeNull();
    expect(serializerOf(schema)({ price: 250, extra: 1 })).toBe('{"price":"250"}');
  });

  it('writes the one error shape, without stray fields', () => {
    const serialize = serializerOf(errorBodySchema);
    const body = {
      error: {
        code: 'validation_failed',
        message: 'Check the form.',
        fields: { body: 'Too long.' },
      },
    };
    expect(serialize({ ...body, stack: 'at handler' })).toBe(JSON.stringify(body));
  });
});

describe('a served route', () => {
  let app: FastifyInstance;
  const endpoint = defineEndpoint({
    id: 'getThing',
    method: 'GET',
    path: '/api/things/{id}',
    tag: 'Instance',
    summary: 'A thing.',
    access: 'public',
    params: z.object({ id: z.string() }),
    status: 200,
    response: document,
  });

  beforeAll(async () => {
    app = Fastify();
    app.setValidatorCompiler(validatorCompiler);
    app.setSerializerCompiler(responseSerializerCompiler());
    serve(app, endpoint, ({ params }) => {
      const leaked = {
        id: params.id,
        count: 1,
        author: { uid: 'u1', username: 'ana', sessionToken: 'secret' },
        editedAt: null,
        tags: [],
        internal: 'row data',
      };
      return leaked;
    });
    await app.ready();
  });
  afterAll(async () => {
    await app.close();
  });

  it('never sends a field its handler leaks', async () => {
    const response = await app.inject({ method: 'GET', url: '/api/things/t1' });
    expect(response.statusCode).toBe(200);
    expect(response.body).not.toContain('secret');
    expect(response.body).not.toContain('row data');
    expect(response.json()).toEqual({
      id: 't1',
      count: 1,
      author: { uid: 'u1', username: 'ana' },
      editedAt: null,
      tags: [],
    });
  });
});
