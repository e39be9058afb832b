import fastJson from 'fast-json-stringify';
import type { FastifySerializerCompiler } from 'fastify/types/schema.js';
import { serializerCompiler as zodSerializerCompiler } from 'fastify-type-provider-zod';
import { z } from 'zod';

type JsonSchema = Record<string, unknown>;

/**
 * zod types whose output is computed (transforms, pipes, codecs), filled in (defaults, catches) or
 * otherwise not what a handler hands over as it is: JSON Schema cannot say what zod would write for them.
 */
const computedTypes = new Set(['pipe', 'transform', 'default', 'prefault', 'catch', 'custom']);

/** A nullable schema as zod writes it: `anyOf` of the schema and `null`, and nothing else. */
function nullableOf(schema: JsonSchema): JsonSchema | null {
  const options = schema.anyOf;
  if (!Array.isArray(options) || options.length !== 2 || Object.keys(schema).length !== 1) {
    return null;
  }
  const [first, second] = options as JsonSchema[];
  const isNull = (option: JsonSchema | undefined) =>
    option?.type === 'null' && Object.keys(option).length === 1;
  const other = isNull(second) ? first : isNull(first) ? second : undefined;
  return other && typeof other.type === 'string' ? other : null;
}

/**
 * Rewrites zod's `anyOf: [X, null]` as X marked `nullable`, which fast-json-stringify writes with a null
 * check; an `anyOf` it would have to settle by validating the value against each option, at run time.
 */
function simplify(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(simplify);
  if (!value || typeof value !== 'object') return value;
  const schema = value as JsonSchema;
  const nullable = nullableOf(schema);
  if (nullable) return { ...(simplify(nullable) as JsonSchema), nullable: true };
  const copy: JsonSchema = {};
  for (const [key, item] of Object.entries(schema)) copy[key] = simplify(item);
  const properties = copy.properties as Record<string, JsonSchema> | undefined;
  if (properties && Array.isArray(copy.required)) {
    // zod lets an `unknown` field be absent though it lists it as required: so must the serializer.
    copy.required = (copy.required as string[]).filter(
      (name) => Object.keys(properties[name] ?? {}).length > 0,
    );
  }
  return copy;
}

/**
 * The JSON Schema of what a response puts on the wire, or null when only zod can write it (see
 * `computedTypes`). Objects are closed (`additionalProperties: false`, zod's output side), so a field a
 * handler adds that the contract does not declare is dropped, as zod's encoding dropped it.
 */
export function wireSchema(schema: z.ZodType): JsonSchema | null {
  const found = { computed: false };
  let converted: JsonSchema;
  try {
    converted = z.toJSONSchema(schema, {
      target: 'draft-7',
      io: 'output',
      unrepresentable: 'throw',
      override: ({ zodSchema }) => {
        if (computedTypes.has(zodSchema._zod.def.type)) found.computed = true;
      },
    });
  } catch {
    return null;
  }
  if (found.computed) return null;
  const { $schema: _dialect, ...rest } = converted;
  const simplified = simplify(rest) as JsonSchema;
  // A real union would be settled by validating the value against each closed option in turn, and a
  // value carrying one undeclared field would match none: zod picks the option and strips instead.
  return JSON.stringify(simplified).includes('"anyOf":') ? null : simplified;
}

/**
 * Fastify's serializer compiler for contract responses: a fast-json-stringify function built from the zod
 * schema's JSON Schema, once per schema at start, so answering neither walks zod's checks nor re-encodes
 * the value. A schema `wireSchema` cannot express keeps zod's encoder, for that status of that route only.
 */
export function responseSerializerCompiler(): FastifySerializerCompiler<z.ZodType> {
  const compiled = new WeakMap<z.ZodType, (data: unknown) => string>();
  return (route) => {
    const schema = route.schema;
    const cached = compiled.get(schema);
    if (cached) return cached;
    const json = wireSchema(schema);
    if (!json) return zodSerializerCompiler(route);
    const serialize = fastJson(json);
    compiled.set(schema, serialize);
    return serialize;
  };
}
