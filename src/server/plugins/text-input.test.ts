import { describe, expect, it } from 'vitest';
import { limits } from '../../shared/limits.js';
import { inspectJson, nestedDeeperThan } from './text-input.js';

/** `inner` wrapped in `depth` arrays. */
function nested(depth: number, inner: unknown = 0): unknown {
  let value = inner;
  for (let level = 0; level < depth; level += 1) value = [value];
  return value;
}

/** `inner` wrapped in `depth` objects of one key. */
function nestedObjects(depth: number, inner: unknown = 0): unknown {
  let value = inner;
  for (let level = 0; level < depth; level += 1) value = { a: value };
  return value;
}

describe('inspectJson', () => {
  it('passes ordinary bodies', () => {
    expect(inspectJson({ email: 'a@b.test', password: 'secret', remember: true })).toEqual({
      kind: 'ok',
    });
    expect(inspectJson(undefined)).toEqual({ kind: 'ok' });
    expect(inspectJson(null)).toEqual({ kind: 'ok' });
    expect(inspectJson('text')).toEqual({ kind: 'ok' });
  });

  it('walks bodies nested 100,000 deep without overflowing the stack', () => {
    expect(inspectJson(nested(100_000))).toEqual({ kind: 'too-complex' });
    expect(inspectJson(nestedObjects(100_000))).toEqual({ kind: 'too-complex' });
  });

  it('takes nesting up to the limit and refuses one level more', () => {
    expect(inspectJson(nested(limits.jsonDepth))).toEqual({ kind: 'ok' });
    expect(inspectJson(nested(limits.jsonDepth + 1))).toEqual({ kind: 'too-complex' });
  });

  it('refuses a body with more values than the limit, however flat', () => {
    const many = Array.from({ length: limits.jsonValues }, () => 0);
    expect(inspectJson(many.slice(1))).toEqual({ kind: 'ok' });
    expect(inspectJson(many)).toEqual({ kind: 'too-complex' });
    const wide = Object.fromEntries(many.map((_, index) => [`k${index}`, index]));
    expect(inspectJson(wide)).toEqual({ kind: 'too-complex' });
  });

  it('names the top-level field of the first unstorable text in document order', () => {
    expect(inspectJson({ a: 'fine', b: ['ok', { c: 'nul\u0000' }], d: 'x\u0000' })).toEqual({
      kind: 'unstorable',
      field: 'b',
    });
    expect(inspectJson({ name: '\ud800' })).toEqual({ kind: 'unstorable', field: 'name' });
    expect(inspectJson(['\u0000'])).toEqual({ kind: 'unstorable', field: 'request' });
    expect(inspectJson('\u0000')).toEqual({ kind: 'unstorable', field: 'request' });
  });
});

describe('nestedDeeperThan', () => {
  it('agrees with the parsed walk at the limit', () => {
    expect(nestedDeeperThan(JSON.stringify(nested(limits.jsonDepth)), limits.jsonDepth)).toBe(
      false,
    );
    expect(nestedDeeperThan(JSON.stringify(nested(limits.jsonDepth + 1)), limits.jsonDepth)).toBe(
      true,
    );
    expect(
      nestedDeeperThan(JSON.stringify(nestedObjects(limits.jsonDepth + 1)), limits.jsonDepth),
    ).toBe(true);
  });

  it('refuses raw text nested 30,000 deep, valid or not', () => {
    expect(nestedDeeperThan(`${'['.repeat(30_000)}${']'.repeat(30_000)}`, limits.jsonDepth)).toBe(
      true,
    );
    expect(nestedDeeperThan('['.repeat(30_000), limits.jsonDepth)).toBe(true);
  });

  it('does not count brackets inside strings, escaped quotes included', () => {
    const body = JSON.stringify({ body: `${'['.repeat(500)} "quoted \\" ${'{'.repeat(500)}` });
    expect(nestedDeeperThan(body, limits.jsonDepth)).toBe(false);
    expect(inspectJson(JSON.parse(body))).toEqual({ kind: 'ok' });
  });
});
