import type { ErrorCode } from '@shared/errors.js';

/** Codes the client adds to the server's catalogue for failures that never reached it or made no sense. */
export type ApiErrorCode = ErrorCode | 'network_error' | 'unexpected_response';

export const networkErrorMessage = "Can't reach the server. Check your connection and try again.";

interface ApiErrorInit {
  status: number;
  code: ApiErrorCode;
  message: string;
  fields?: Record<string, string>;
  retryAfterSeconds?: number | null;
}

/** Every failed API call rejects with this: status 0 means the request never got an answer. */
export class ApiError extends Error {
  override readonly name = 'ApiError';
  readonly status: number;
  readonly code: ApiErrorCode;
  readonly fields: Record<string, string>;
  readonly retryAfterSeconds: number | null;

  constructor(init: ApiErrorInit) {
    super(init.message);
    this.status = init.status;
    this.code = init.code;
    this.fields = init.fields ?? {};
    this.retryAfterSeconds = init.retryAfterSeconds ?? null;
  }
}

/** True for an ApiError, optionally with the given code. */
export function isApiError(error: unknown, code?: ApiErrorCode): error is ApiError {
  return error instanceof ApiError && (code === undefined || error.code === code);
}

/** Reads a Retry-After header (delta-seconds or an HTTP date) as whole seconds from `now`. */
export function parseRetryAfter(value: string | null, now: number = Date.now()): number | null {
  if (value === null || value.trim() === '') return null;
  const trimmed = value.trim();
  if (/^\d+$/.test(trimmed)) return Number(trimmed);
  const date = Date.parse(trimmed);
  if (Number.isNaN(date)) return null;
  return Math.max(0, Math.ceil((date - now) / 1000));
}

/** The one rate-limit sentence the UI shows, rounded up to whole minutes. */
export function rateLimitMessage(retryAfterSeconds: number | null): string {
  if (retryAfterSeconds === null) return 'Too many attempts. Try again in a few minutes.';
  const minutes = Math.max(1, Math.ceil(retryAfterSeconds / 60));
  return `Too many attempts. Try again in ${minutes} ${minutes === 1 ? 'minute' : 'minutes'}.`;
}

function fallbackFor(status: number): { code: ApiErrorCode; message: string } {
  switch (status) {
    case 400:
      return { code: 'bad_request', message: 'That request could not be processed.' };
    case 401:
      return { code: 'unauthenticated', message: 'Please sign in to continue.' };
    case 403:
      return { code: 'forbidden', message: "You don't have permission to do that." };
    case 404:
      return { code: 'not_found', message: "We couldn't find that." };
    case 409:
      return { code: 'conflict', message: 'That conflicts with something that already exists.' };
    case 413:
      return { code: 'payload_too_large', message: 'That is too large to send.' };
    case 429:
      return { code: 'rate_limited', message: rateLimitMessage(null) };
    case 503:
      return {
        code: 'unavailable',
        message: 'The server is busy right now. Please try again in a moment.',
      };
    default:
      return {
        code: status >= 500 ? 'internal' : 'unexpected_response',
        message: 'Something went wrong on our side. Please try again in a moment.',
      };
  }
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function stringFields(value: unknown): Record<string, string> | undefined {
  if (!isRecord(value)) return undefined;
  const fields: Record<string, string> = {};
  for (const [key, message] of Object.entries(value)) {
    if (typeof message === 'string') fields[key] = message;
  }
  return fields;
}

/**
 * Maps a failed response to an ApiError. The body follows DESIGN.md "Errors" when the server wrote it;
 * anything else (a proxy's HTML page, an empty body) gets a message chosen from the status alone.
 */
export function toApiError(
  status: number,
  body: unknown,
  retryAfterHeader: string | null,
  now: number = Date.now(),
): ApiError {
  const fallback = fallbackFor(status);
  const retryAfterSeconds = parseRetryAfter(retryAfterHeader, now);
  const error = isRecord(body) && isRecord(body.error) ? body.error : null;
  const code =
    error && typeof error.code === 'string' ? (error.code as ApiErrorCode) : fallback.code;
  let message =
    error && typeof error.message === 'string' && error.message.trim() !== ''
      ? error.message
      : fallback.message;
  // The rate-limit wording is ours so that it can say when to try again (Retry-After).
  if (code === 'rate_limited') message = rateLimitMessage(retryAfterSeconds);
  return new ApiError({
    status,
    code,
    message,
    fields: error ? stringFields(error.fields) : undefined,
    retryAfterSeconds,
  });
}

type Method = 'GET' | 'POST' | 'PATCH' | 'PUT' | 'DELETE';

interface RequestOptions {
  method?: Method;
  body?: unknown;
  signal?: AbortSignal;
}

async function readJson(response: Response): Promise<unknown> {
  const text = await response.text();
  if (text === '') return undefined;
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return undefined;
  }
}

/**
 * Same-origin JSON request. The response is typed by the caller with a contract type from
 * @shared/schemas: the server serialises with those same schemas, and validating again here would
 * put zod in the entry chunk.
 */
export async function apiRequest<T>(path: string, options: RequestOptions = {}): Promise<T> {
  const { method = 'GET', body, signal } = options;
  const headers: Record<string, string> = { Accept: 'application/json' };
  // A FormData body (uploads) goes as multipart: the browser writes its Content-Type with the boundary.
  const isForm = typeof FormData === 'function' && body instanceof FormData;
  if (body !== undefined && !isForm) headers['Content-Type'] = 'application/json';
  let response: Response;
  try {
    response = await fetch(path, {
      method,
      headers,
      credentials: 'same-origin',
      body: isForm ? body : body === undefined ? undefined : JSON.stringify(body),
      signal,
    });
  } catch (error) {
    // Cancellation (TanStack Query, unmounts) must stay an AbortError so callers can ignore it.
    if (error instanceof DOMException && error.name === 'AbortError') throw error;
    throw new ApiError({ status: 0, code: 'network_error', message: networkErrorMessage });
  }
  const payload = await readJson(response);
  if (!response.ok) {
    throw toApiError(response.status, payload, response.headers.get('Retry-After'));
  }
  if (payload === undefined && response.status !== 204) {
    throw new ApiError({
      status: response.status,
      code: 'unexpected_response',
      message: 'The server sent an answer we could not read. Please try again.',
    });
  }
  return payload as T;
}

/** GET a JSON document. */
export function apiGet<T>(path: string, signal?: AbortSignal): Promise<T> {
  return apiRequest<T>(path, { signal });
}

/** POST a JSON body. */
export function apiPost<T>(path: string, body: unknown = {}, signal?: AbortSignal): Promise<T> {
  return apiRequest<T>(path, { method: 'POST', body, signal });
}

/** POST a multipart form (text fields and files). */
export function apiPostForm<T>(path: string, form: FormData, signal?: AbortSignal): Promise<T> {
  return apiRequest<T>(path, { method: 'POST', body: form, signal });
}

/** PATCH a multipart form (text fields and files). */
export function apiPatchForm<T>(path: string, form: FormData, signal?: AbortSignal): Promise<T> {
  return apiRequest<T>(path, { method: 'PATCH', body: form, signal });
}

/** PATCH a JSON body. */
export function apiPatch<T>(path: string, body: unknown, signal?: AbortSignal): Promise<T> {
  return apiRequest<T>(path, { method: 'PATCH', body, signal });
}

/** PUT a JSON body (an idempotent state, such as a like). */
export function apiPut<T>(path: string, body: unknown = {}, signal?: AbortSignal): Promise<T> {
  return apiRequest<T>(path, { method: 'PUT', body, signal });
}

/** DELETE a resource. */
export function apiDelete<T>(path: string, signal?: AbortSignal): Promise<T> {
  return apiRequest<T>(path, { method: 'DELETE', signal });
}
