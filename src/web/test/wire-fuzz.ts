/**
 * Values a contract shape allows, and the same values with one place broken: the differential fuzz of the
 * web's checks against zod's parse (wire-check.test.ts, realtime-messages.test.ts).
 */
import fc from 'fast-check';
import type { WireShape } from '@web/lib/wire-check.js';

/** Any JSON value without a `__proto__` field (see `hasProtoField`). */
function json(maxDepth?: number): fc.Arbitrary<unknown> {
  return fc
    .jsonValue(maxDepth === undefined ? {} : { maxDepth })
    .filter((value) => !hasProtoField(value));
}

/** Values a shape accepts: the fuzz below starts from these and breaks them. */
export function valuesOf(shape: WireShape): fc.Arbitrary<unknown> {
  if (shape.anyOf) return fc.oneof(...shape.anyOf.map(valuesOf));
  if (shape.oneOf) return fc.oneof(...shape.oneOf.map(valuesOf));
  if ('const' in shape) return fc.constant(shape.const);
  if (shape.enum) return fc.constantFrom(...shape.enum);
  const types =
    shape.type === undefined ? [] : typeof shape.type === 'string' ? [shape.type] : shape.type;
  if (types.length === 0) return json();
  return fc.oneof(
    ...types.map((type): fc.Arbitrary<unknown> => {
      switch (type) {
        case 'null':
          return fc.constant(null);
        case 'boolean':
          return fc.boolean();
        case 'string':
          return shape.pattern ? fc.stringMatching(shape.pattern) : fc.string({ maxLength: 12 });
        case 'integer':
          return fc.integer({
            min: Math.max(shape.minimum ?? -1000, (shape.exclusiveMinimum ?? -1001) + 1),
            max: Math.min(shape.maximum ?? 1000, Number.MAX_SAFE_INTEGER),
          });
        case 'number':
          return fc.double({
            min: Math.max(shape.minimum ?? -1000, shape.exclusiveMinimum ?? -1000),
            max: shape.maximum ?? 1000,
            minExcluded: shape.exclusiveMinimum !== undefined,
            noNaN: true,
          });
        case 'array':
          return fc.array(shape.items ? valuesOf(shape.items) : json(), { maxLength: 3 });
        case 'object':
          return objectsOf(shape);
      }
    }),
  );
}

/**
 * Whether a value holds a `__proto__` field anywhere. zod's parse of a record assigns each key, so such a
 * field becomes the copy's prototype or is lost; the web's check keeps it a field on purpose
 * (wire-check.test.ts tests that alone). The differential fuzz compares the two on every other value.
 */
function hasProtoField(value: unknown): boolean {
  if (Array.isArray(value)) return value.some(hasProtoField);
  if (!value || typeof value !== 'object') return false;
  return Object.hasOwn(value, '__proto__') || Object.values(value).some(hasProtoField);
}

function objectsOf(shape: WireShape): fc.Arbitrary<unknown> {
  const rest = shape.additionalProperties;
  if (!shape.properties && rest && rest !== true) {
    const names = shape.propertyNames ? valuesOf(shape.propertyNames) : fc.string({ maxLength: 6 });
    // A record's values come from valuesOf already; only its own keys can be `__proto__`.
    const keys = (names as fc.Arbitrary<string>).filter((key) => key !== '__proto__');
    return fc.dictionary(keys, valuesOf(rest), { maxKeys: 3 });
  }
  const properties = Object.fromEntries(
    Object.entries(shape.properties ?? {}).map(([name, property]) => [name, valuesOf(property)]),
  );
  const required = (shape.required ?? []).filter((name) => name in properties);
  return fc.record(properties, { requiredKeys: required });
}

/** Every place inside a value (an empty path is the value itself). */
export function pathsOf(value: unknown, at: (string | number)[] = []): (string | number)[][] {
  const here = [at];
  if (Array.isArray(value)) {
    return here.concat(...(value as unknown[]).map((item, index) => pathsOf(item, [...at, index])));
  }
  if (value && typeof value === 'object') {
    return here.concat(...Object.entries(value).map(([key, item]) => pathsOf(item, [...at, key])));
  }
  return here;
}

export type Change =
  { kind: 'replace'; with: unknown } | { kind: 'delete' } | { kind: 'extra'; with: unknown };

/** The value with one place replaced, removed, or given an undeclared field. */
export function changed(value: unknown, path: (string | number)[], change: Change): unknown {
  if (path.length === 0) {
    if (change.kind === 'replace') return change.with;
    if (change.kind === 'extra' && value && typeof value === 'object' && !Array.isArray(value)) {
      return { ...value, undeclaredField: change.with };
    }
    return value;
  }
  const [head, ...tail] = path as [string | number, ...(string | number)[]];
  if (Array.isArray(value)) {
    const copy: unknown[] = [...(value as unknown[])];
    if (tail.length === 0 && change.kind === 'delete') copy.splice(Number(head), 1);
    else copy[Number(head)] = changed(copy[Number(head)], tail, change);
    return copy;
  }
  const { [head]: inner, ...others } = value as Record<string, unknown>;
  if (tail.length === 0 && change.kind === 'delete') return others;
  return { ...others, [head]: changed(inner, tail, change) };
}

export const changes: fc.Arbitrary<Change> = fc.oneof(
  fc.record({ kind: fc.constant('replace' as const), with: json(2) }),
  fc.record({ kind: fc.constant('delete' as const) }),
  fc.record({ kind: fc.constant('extra' as const), with: json(1) }),
);
