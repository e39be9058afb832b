import type { z } from 'zod';
import { Invalid } from './errors.js';

/** Validates with a shared schema outside Fastify's body validation (multipart forms): field errors or data. */
export function parseOrThrow<Schema extends z.ZodType>(
  schema: Schema,
  data: unknown,
  message = 'Some form fields need attention.',
): z.output<Schema> {
  const result = schema.safeParse(data);
  if (result.success) return result.data;
  const fields: Record<string, string> = {};
  for (const issue of result.error.issues) {
    const key = typeof issue.path[0] === 'string' ? issue.path[0] : 'form';
    fields[key] ??= issue.message;
  }
  throw new Invalid(message, fields);
}
