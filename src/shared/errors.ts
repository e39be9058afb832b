import { z } from 'zod';

/** Machine-readable error codes of the one JSON error shape. */
export const errorCodes = [
  'bad_request',
  'validation_failed',
  'unauthenticated',
  'forbidden',
  'account_inactive',
  'account_suspended',
  'not_found',
  'conflict',
  'invalid_credentials',
  'invalid_token',
  'payload_too_large',
  'unsupported_media_type',
  'rate_limited',
  'origin_mismatch',
  'registration_closed',
  'internal',
  'unavailable',
] as const;
export type ErrorCode = (typeof errorCodes)[number];

/** DESIGN.md "Errors": `{ "error": { "code", "message", "fields"? } }`. */
export const errorBodySchema = z.object({
  error: z.object({
    code: z.enum(errorCodes),
    message: z.string(),
    fields: z.record(z.string(), z.string()).optional(),
  }),
});
export type ErrorBody = z.infer<typeof errorBodySchema>;
