import { z } from 'zod';
import { errorCodes } from './error-codes.js';

/** DESIGN.md "Errors": `{ "error": { "code", "message", "fields"? } }`. */
export const errorBodySchema = z.object({
  error: z.object({
    code: z.enum(errorCodes),
    message: z.string(),
    fields: z.record(z.string(), z.string()).optional(),
  }),
});
export type ErrorBody = z.infer<typeof errorBodySchema>;
