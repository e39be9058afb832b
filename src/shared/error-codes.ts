// The error codes alone, free of zod: the web app's API client reads them on its first load (ADR 0032).

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
