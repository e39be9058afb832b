import { endpoints } from '@shared/contract/index.js';
import { accountEndpoints } from '@shared/contract/endpoints/account.js';
import { adminDashboardEndpoints } from '@shared/contract/endpoints/admin-dashboard.js';
import { adminInstanceEndpoints } from '@shared/contract/endpoints/admin-instance.js';
import { adminUserEndpoints } from '@shared/contract/endpoints/admin-users.js';
import { authEndpoints } from '@shared/contract/endpoints/auth.js';
import { commentEndpoints } from '@shared/contract/endpoints/comments.js';
import { followEndpoints } from '@shared/contract/endpoints/follows.js';
import { instanceEndpoints } from '@shared/contract/endpoints/instance.js';
import { moderationEndpoints } from '@shared/contract/endpoints/moderation.js';
import { notificationEndpoints } from '@shared/contract/endpoints/notifications.js';
import { postEndpoints } from '@shared/contract/endpoints/posts.js';
import { profileEndpoints } from '@shared/contract/endpoints/profiles.js';
import { relationshipEndpoints } from '@shared/contract/endpoints/relationships.js';
import { searchEndpoints } from '@shared/contract/endpoints/search.js';
import { userEndpoints } from '@shared/contract/endpoints/users.js';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { wireShapeOf } from '../../../scripts/web-contract.js';
import { changed, changes, pathsOf, valuesOf } from '@web/test/wire-fuzz.js';
import { wireCheck, type WireShape } from './wire-check.js';

// `@shared/contract/index.js` lives outside src/web, so its endpoint modules are zod's; the endpoint
// modules imported here by name are the ones the web build generates (scripts/web-contract.ts).
const shipped = {
  ...accountEndpoints,
  ...adminDashboardEndpoints,
  ...adminInstanceEndpoints,
  ...adminUserEndpoints,
  ...authEndpoints,
  ...commentEndpoints,
  ...followEndpoints,
  ...instanceEndpoints,
  ...moderationEndpoints,
  ...notificationEndpoints,
  ...postEndpoints,
  ...profileEndpoints,
  ...relationshipEndpoints,
  ...searchEndpoints,
  ...userEndpoints,
} as Record<string, unknown>;

interface ShippedEndpoint {
  id: string;
  method: string;
  path: string;
  status: number;
  form?: { files: readonly string[] };
  response: { safeParse(value: unknown): { success: boolean; data?: unknown } };
}

function shippedEndpoint(key: string): ShippedEndpoint {
  const endpoint = shipped[key];
  if (!endpoint) throw new Error(`the web build has no endpoint ${key}`);
  return endpoint as ShippedEndpoint;
}

/** The same verdict and the same value from zod's parse and from the shipped check. */
function expectSameAnswer(schema: z.ZodType, endpoint: ShippedEndpoint, value: unknown) {
  const byZod = z.safeParse(schema, value);
  const byWire = endpoint.response.safeParse(value);
  expect(byWire.success, JSON.stringify(value)).toBe(byZod.success);
  if (byZod.success) expect(byWire.data).toEqual(byZod.data);
}

describe('the contract as the web app ships it', () => {
  it('has every endpoint, with only what the API client reads and no zod', () => {
    for (const [key, endpoint] of Object.entries(endpoints)) {
      const web = shippedEndpoint(key);
      expect(web).toEqual({
        id: endpoint.id,
        method: endpoint.method,
        path: endpoint.path,
        status: endpoint.status,
        ...('form' in endpoint ? { form: { files: endpoint.form.files } } : {}),
        response: { safeParse: expect.any(Function) as unknown },
      });
      expect(web.response).not.toHaveProperty('_zod');
    }
    expect(Object.keys(shipped).sort()).toEqual(Object.keys(endpoints).sort());
  });

  // A few dozen values per answer, each checked whole and then with one place broken, agreeing with
  // zod's parse on the verdict and on the value it hands back.
  describe.each(Object.entries(endpoints))('%s', (key, endpoint) => {
    const schema = endpoint.response as z.ZodType;
    const shape = wireShapeOf(schema, key) as WireShape;
    const web = shippedEndpoint(key);

    it('answers as zod does for what the contract allows', () => {
      fc.assert(
        fc.property(valuesOf(shape), (value) => {
          expect(z.safeParse(schema, value).success, JSON.stringify(value)).toBe(true);
          expectSameAnswer(schema, web, value);
        }),
        { numRuns: 25 },
      );
    });

    it('answers as zod does for an answer with one place broken', () => {
      const broken = valuesOf(shape).chain((value) => {
        const paths = pathsOf(value);
        return fc
          .tuple(fc.constantFrom(...paths), changes)
          .map(([path, change]) => changed(value, path, change));
      });
      fc.assert(
        fc.property(broken, (value) => {
          expectSameAnswer(schema, web, value);
        }),
        { numRuns: 40 },
      );
    });
  });
});

describe('wireCheck', () => {
  const person: WireShape = {
    type: 'object',
    properties: {
      name: { type: 'string', pattern: /^\p{L}+$/u },
      age: { type: 'integer', minimum: 0, maximum: 150 },
      score: { type: 'number', exclusiveMinimum: 0 },
      nick: { anyOf: [{ type: 'string' }, { type: 'null' }] },
      role: { type: 'string', enum: ['user', 'admin'] },
      kind: { type: 'string', const: 'person' },
      tags: { type: 'array', items: { type: 'string' } },
      extra: {},
    },
    required: ['name', 'age', 'nick', 'role', 'kind', 'tags', 'extra'],
  };
  const valid = {
    name: 'Zoë',
    age: 30,
    nick: null,
    role: 'user',
    kind: 'person',
    tags: ['a'],
    extra: { any: 'thing' },
  };

  it('accepts a value of the shape and drops fields the shape does not declare', () => {
    expect(wireCheck(person).safeParse({ ...valid, leaked: 'secret' })).toEqual({
      success: true,
      data: valid,
    });
  });

  it('keeps the pattern’s flags: a letter outside ASCII is a letter', () => {
    expect(wireCheck(person).safeParse({ ...valid, name: 'Émile' }).success).toBe(true);
    expect(wireCheck(person).safeParse({ ...valid, name: 'R2D2' }).success).toBe(false);
  });

  it.each([
    ['a missing field', { ...valid, tags: undefined }],
    ['a number for a string', { ...valid, name: 7 }],
    ['a fraction for an integer', { ...valid, age: 1.5 }],
    ['a number out of range', { ...valid, age: 151 }],
    ['a number at an exclusive minimum', { ...valid, score: 0 }],
    ['an unknown enum value', { ...valid, role: 'root' }],
    ['another constant', { ...valid, kind: 'robot' }],
    ['a wrong item', { ...valid, tags: ['a', 1] }],
    ['an array for an object', [valid]],
    ['null for an object', null],
  ])('refuses %s', (_name, value) => {
    const input: unknown = JSON.parse(JSON.stringify(value));
    expect(wireCheck(person).safeParse(input)).toEqual({ success: false });
  });

  it('refuses an undeclared field where the object is strict', () => {
    const strict: WireShape = { ...person, additionalProperties: false };
    expect(wireCheck(strict).safeParse(valid)).toEqual({ success: true, data: valid });
    expect(wireCheck(strict).safeParse({ ...valid, leaked: 'secret' })).toEqual({ success: false });
  });

  it('lets an `unknown` field be absent, as zod does', () => {
    const { extra: _extra, ...rest } = valid;
    expect(wireCheck(person).safeParse(rest)).toEqual({ success: true, data: rest });
  });

  it('takes the first option of a union that accepts the value', () => {
    const either: WireShape = {
      anyOf: [
        {
          type: 'object',
          properties: { a: { type: 'string' } },
          required: ['a'],
        },
        {
          type: 'object',
          properties: { b: { type: 'string' } },
          required: ['b'],
        },
      ],
    };
    expect(wireCheck(either).safeParse({ a: 'x', b: 'y' })).toEqual({
      success: true,
      data: { a: 'x' },
    });
    expect(wireCheck(either).safeParse({ b: 'y' })).toEqual({ success: true, data: { b: 'y' } });
    expect(wireCheck(either).safeParse({ c: 'z' })).toEqual({ success: false });
  });

  it('checks a record’s keys and values, and keeps `__proto__` a field', () => {
    const counts: WireShape = {
      type: 'object',
      propertyNames: { type: 'string', pattern: /^[a-z_]+$/ },
      additionalProperties: { type: 'integer' },
    };
    const parsed = wireCheck(counts).safeParse(JSON.parse('{"__proto__": 1, "likes": 2}'));
    expect(parsed.success).toBe(true);
    const data = (parsed as { data: Record<string, unknown> }).data;
    expect(Object.getPrototypeOf(data)).toBe(Object.prototype);
    expect(Object.keys(data)).toEqual(['__proto__', 'likes']);
    expect(wireCheck(counts).safeParse({ Likes: 2 })).toEqual({ success: false });
    expect(wireCheck(counts).safeParse({ likes: 'two' })).toEqual({ success: false });
  });
});

describe('wireShapeOf', () => {
  it('refuses an answer whose output zod computes', () => {
    expect(() =>
      wireShapeOf(z.object({ at: z.string().transform((value) => new Date(value)) }), 'x'),
    ).toThrow(/transform/i);
    expect(() => wireShapeOf(z.object({ n: z.number().default(1) }), 'x')).toThrow(/default/);
  });

  it('refuses a refinement, which JSON Schema cannot carry', () => {
    expect(() =>
      wireShapeOf(
        z.string().refine((value) => value !== 'x'),
        'x',
      ),
    ).toThrow(/refinement/);
  });

  it('refuses a keyword wireCheck does not know', () => {
    expect(() => wireShapeOf(z.string().min(2), 'x')).toThrow(/minLength/);
  });
});
