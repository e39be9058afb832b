/**
 * Checks an API answer against its endpoint's response shape without zod (ADR 0032). The web build replaces
 * each contract endpoint's zod response schema with `wireCheck(shape)`, where `shape` is the JSON Schema that
 * zod itself writes for that schema's output, generated from the contract when the app is built
 * (scripts/web-contract.ts). It answers like zod's `safeParse`: the value with undeclared fields dropped, or
 * a failure. Only the keywords the contract's answers use are understood; the generator refuses a shape with
 * any other, so no constraint is ever skipped in silence.
 */

/** The part of JSON Schema that zod writes for the contract's answers (output side). */
export interface WireShape {
  type?: WireType | readonly WireType[];
  properties?: Readonly<Record<string, WireShape>>;
  required?: readonly string[];
  /**
   * Undeclared fields: absent, they are dropped (zod's default object); `false` refuses them (a strict
   * object); `true` keeps them; a shape checks each (a record's values, or an object's catch-all).
   */
  additionalProperties?: boolean | WireShape;
  propertyNames?: WireShape;
  items?: WireShape;
  enum?: readonly unknown[];
  const?: unknown;
  anyOf?: readonly WireShape[];
  /** zod's discriminated union: the one option that accepts the value (their discriminators differ). */
  oneOf?: readonly WireShape[];
  /** A RegExp with the contract's own flags (JSON Schema's string loses them, and `\p{…}` needs `u`). */
  pattern?: RegExp;
  minimum?: number;
  maximum?: number;
  exclusiveMinimum?: number;
}

export type WireType = 'object' | 'array' | 'string' | 'number' | 'integer' | 'boolean' | 'null';

/** The keywords `check` understands; the generator refuses a shape that uses any other. */
export const wireKeywords: readonly (keyof WireShape)[] = [
  'type',
  'properties',
  'required',
  'additionalProperties',
  'propertyNames',
  'items',
  'enum',
  'const',
  'anyOf',
  'oneOf',
  'pattern',
  'minimum',
  'maximum',
  'exclusiveMinimum',
];

/** What `safeParse` answers, as far as the API client reads it. */
export type WireResult<T> = { success: true; data: T } | { success: false };

/** What `check` answers for a value its shape refuses. */
const mismatch: unique symbol = Symbol('mismatch');

function typeOf(value: unknown): WireType | 'other' {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'array';
  switch (typeof value) {
    case 'string':
      return 'string';
    case 'number':
      return Number.isInteger(value) ? 'integer' : 'number';
    case 'boolean':
      return 'boolean';
    case 'object':
      return 'object';
    default:
      return 'other';
  }
}

function typeMatches(expected: WireType, actual: WireType | 'other'): boolean {
  return expected === actual || (expected === 'number' && actual === 'integer');
}

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeOf(value) === 'object';
}

/** The value as the shape accepts it (objects copied without undeclared fields), or `mismatch`. */
function check(shape: WireShape, value: unknown): unknown {
  if (shape.anyOf) {
    // zod's union: the first option that accepts the value gives the result.
    for (const option of shape.anyOf) {
      const result = check(option, value);
      if (result !== mismatch) return result;
    }
    return mismatch;
  }
  if (shape.oneOf) {
    // zod's discriminated union picks the option its discriminator names; the options' literal
    // discriminators differ, so that is the one option that accepts the value, and no other does.
    let accepted: unknown = mismatch;
    for (const option of shape.oneOf) {
      const result = check(option, value);
      if (result === mismatch) continue;
      if (accepted !== mismatch) return mismatch;
      accepted = result;
    }
    return accepted;
  }
  if (shape.type !== undefined) {
    const actual = typeOf(value);
    const types: readonly WireType[] = typeof shape.type === 'string' ? [shape.type] : shape.type;
    if (!types.some((type) => typeMatches(type, actual))) return mismatch;
  }
  if ('const' in shape && value !== shape.const) return mismatch;
  if (shape.enum && !shape.enum.includes(value)) return mismatch;
  if (typeof value === 'string') {
    return shape.pattern && !shape.pattern.test(value) ? mismatch : value;
  }
  if (typeof value === 'number') {
    if (shape.minimum !== undefined && value < shape.minimum) return mismatch;
    if (shape.maximum !== undefined && value > shape.maximum) return mismatch;
    if (shape.exclusiveMinimum !== undefined && value <= shape.exclusiveMinimum) return mismatch;
    return value;
  }
  if (Array.isArray(value)) {
    const items = shape.items;
    if (!items) return value;
    const result: unknown[] = [];
    for (const item of value) {
      const checked = check(items, item);
      if (checked === mismatch) return mismatch;
      result.push(checked);
    }
    return result;
  }
  if (isPlainObject(value) && (shape.properties || shape.additionalProperties !== undefined)) {
    return checkObject(shape, value);
  }
  return value;
}

function checkObject(shape: WireShape, value: Record<string, unknown>): unknown {
  const result: Record<string, unknown> = {};
  const properties = shape.properties ?? {};
  for (const name of shape.required ?? []) {
    // An `unknown` field (an empty shape) may be absent though listed as required, as in zod.
    const declared = properties[name];
    if (!(name in value) && !(declared && Object.keys(declared).length === 0)) return mismatch;
  }
  for (const [name, item] of Object.entries(value)) {
    const declared = Object.hasOwn(properties, name) ? properties[name] : undefined;
    const rest = shape.additionalProperties;
    let checked: unknown;
    if (declared) {
      checked = check(declared, item);
    } else if (rest === undefined) {
      continue;
    } else if (rest === false) {
      return mismatch;
    } else {
      if (shape.propertyNames && check(shape.propertyNames, name) === mismatch) return mismatch;
      checked = rest === true ? item : check(rest, item);
    }
    if (checked === mismatch) return mismatch;
    // A record's keys come from the server: `__proto__` must stay a field, never become the prototype.
    Object.defineProperty(result, name, {
      value: checked,
      enumerable: true,
      writable: true,
      configurable: true,
    });
  }
  return result;
}

/** A zod-like checker for one response shape: `safeParse` is what the API client calls. */
export function wireCheck<T = unknown>(shape: WireShape) {
  return {
    safeParse(value: unknown): WireResult<T> {
      const checked = check(shape, value);
      return checked === mismatch ? { success: false } : { success: true, data: checked as T };
    },
  };
}
