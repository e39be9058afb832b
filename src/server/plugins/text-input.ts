import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import { Invalid } from '../errors.js';

/** Finds the first field (by top-level name) whose text contains a NUL character. */
export function fieldWithNul(value: unknown, field = 'request'): string | null {
  if (typeof value === 'string') return value.includes('\u0000') ? field : null;
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
 * PostgreSQL cannot store NUL in text, and no person types one: refuse it in any JSON field before it can
 * reach a query, so both databases answer the same clear 400.
 */
export const textInputPlugin = fp(
  (app: FastifyInstance, _options: object, done: () => void) => {
    app.addHook('preValidation', (request, _reply, next) => {
      const field = fieldWithNul(request.body);
      if (!field) {
        next();
        return;
      }
      next(new Invalid('Text cannot contain NUL characters.', { [field]: 'Remove the NUL character.' }));
    });
    done();
  },
  { name: 'text-input' },
);
