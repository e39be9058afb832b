import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import { Invalid } from '../errors.js';

/** Text no person types and PostgreSQL cannot store: NUL, and lone UTF-16 surrogates. */
export function isUnstorableText(value: string): boolean {
  return value.includes('\u0000') || !value.isWellFormed();
}

/** Finds the first field (by top-level name) holding unstorable text. */
export function fieldWithNul(value: unknown, field = 'request'): string | null {
  if (typeof value === 'string') return isUnstorableText(value) ? field : null;
  if (Array.isArray(value)) {
    for (const item of value) {
      const found = fieldWithNul(item, field);
      if (found) return found;
    }
    return null;
  }
  if (value && typeof value === 'object') {
    for (const [key, item] of Object.entries(value)) {
      const found = fieldWithNul(item, field === 'request' ? key : field);
      if (found) return found;
    }
  }
  return null;
}

/**
 * PostgreSQL cannot store NUL in text and lone surrogates are not text at all: refuse them in any JSON
 * field before they reach a query, so both databases answer the same clear 400.
 */
export const textInputPlugin = fp(
  (app: FastifyInstance, _options: object, done: () => void) => {
    app.addHook('preValidation', (request, _reply, next) => {
      const field = fieldWithNul(request.body);
      if (!field) {
        next();
        return;
      }
      next(
        new Invalid('Some text contains characters that are not allowed.', {
          [field]: 'Remove the invalid characters (NUL or broken Unicode).',
        }),
      );
    });
    done();
  },
  { name: 'text-input' },
);
