import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import { limits } from '../../shared/limits.js';
import { DomainError, Invalid } from '../errors.js';

/** Text no person types and PostgreSQL cannot store: NUL, and lone UTF-16 surrogates. */
export function isUnstorableText(value: string): boolean {
  return value.includes('\u0000') || !value.isWellFormed();
}

/** What a look through a JSON body found: nothing, a field holding unstorable text, or too much shape. */
export type JsonFinding =
  { kind: 'ok' } | { kind: 'unstorable'; field: string } | { kind: 'too-complex' };

/**
 * Walks a parsed JSON body without recursion, so a body nested thousands deep cannot overflow the
 * stack, and stops past `limits.jsonDepth` levels or `limits.jsonValues` values: no form of ours comes
 * near either, and the schema validators that run next do recurse.
 */
export function inspectJson(body: unknown): JsonFinding {
  // Depth-first, children pushed in reverse, so the first unstorable field in document order is named.
  const pending: { value: unknown; field: string; depth: number }[] = [
    { value: body, field: 'request', depth: 0 },
  ];
  let values = 0;
  for (let next = pending.pop(); next; next = pending.pop()) {
    const { value, field, depth } = next;
    values += 1;
    if (values > limits.jsonValues || depth > limits.jsonDepth) return { kind: 'too-complex' };
    if (typeof value === 'string') {
      if (isUnstorableText(value)) return { kind: 'unstorable', field };
      continue;
    }
    if (!value || typeof value !== 'object') continue;
    const entries: [string, unknown][] = Array.isArray(value)
      ? value.map((item: unknown) => [field, item])
      : Object.entries(value).map(([key, item]) => [depth === 0 ? key : field, item]);
    if (values + pending.length + entries.length > limits.jsonValues)
      return { kind: 'too-complex' };
    for (let index = entries.length - 1; index >= 0; index -= 1) {
      const [name, item] = entries[index] ?? ['request', null];
      pending.push({ value: item, field: name, depth: depth + 1 });
    }
  }
  return { kind: 'ok' };
}

/**
 * Whether raw JSON text opens more than `max` arrays or objects inside one another. A linear scan of the
 * text, so a body nested tens of thousands deep is refused before JSON.parse spends milliseconds on it.
 */
export function nestedDeeperThan(text: string, max: number): boolean {
  let depth = 0;
  let inString = false;
  for (let index = 0; index < text.length; index += 1) {
    const code = text.charCodeAt(index);
    if (inString) {
      if (code === 0x5c) index += 1;
      else if (code === 0x22) inString = false;
    } else if (code === 0x22) inString = true;
    else if (code === 0x5b || code === 0x7b) {
      depth += 1;
      if (depth > max) return true;
    } else if (code === 0x5d || code === 0x7d) depth -= 1;
  }
  return false;
}

const tooComplex = () =>
  new DomainError(400, 'bad_request', 'The request body is nested too deeply or too long.');

/**
 * Every JSON body is looked through before validation: bodies nested or sprawling past any form of ours
 * are refused (the validators recurse), and PostgreSQL cannot store NUL in text while lone surrogates are
 * not text at all, so those are refused in any field before they reach a query and both databases
 * answer the same clear 400.
 */
export const textInputPlugin = fp(
  (app: FastifyInstance, _options: object, done: () => void) => {
    const parseJson = app.getDefaultJsonParser('error', 'error');
    app.removeContentTypeParser('application/json');
    app.addContentTypeParser('application/json', { parseAs: 'string' }, (request, body, done) => {
      const text = typeof body === 'string' ? body : body.toString('utf8');
      if (nestedDeeperThan(text, limits.jsonDepth)) done(tooComplex(), undefined);
      else void parseJson(request, text, done);
    });
    app.addHook('preValidation', (request, _reply, next) => {
      // Most requests (every GET) carry no body: nothing to walk.
      if (request.body === undefined || request.body === null) {
        next();
        return;
      }
      const finding = inspectJson(request.body);
      if (finding.kind === 'ok') {
        next();
        return;
      }
      next(
        finding.kind === 'too-complex'
          ? tooComplex()
          : new Invalid('Some text contains characters that are not allowed.', {
              [finding.field]: 'Remove the invalid characters (NUL or broken Unicode).',
            }),
      );
    });
    done();
  },
  { name: 'text-input' },
);
