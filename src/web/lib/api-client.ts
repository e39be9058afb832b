import {
  fillPath,
  type Endpoint,
  type EndpointInput,
  type EndpointResponse,
} from '@shared/contract/endpoint.js';
import { errorCodes, type ErrorCode } from '@shared/error-codes.js';

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

function isErrorCode(value: unknown): value is ErrorCode {
  return errorCodes.some((code) => code === value);
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
  const code = error && isErrorCode(error.code) ? error.code : fallback.code;
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

async function readJson(response: Response): Promise<unknown> {
  const text = await response.text();
  if (text === '') return undefined;
  try {
    const value: unknown = JSON.parse(text);
    return value;
  } catch {
    return undefined;
  }
}

/** A text value as a query parameter or form field carries it; absent values are left out. */
function textValue(value: unknown): string | undefined {
  if (value === undefined || value === null || value === '') return undefined;
  if (typeof value === 'string') return value;
  if (typeof value === 'number' || typeof value === 'boolean') return String(value);
  return JSON.stringify(value);
}

function queryString(query: object | undefined): string {
  if (!query) return '';
  const search = new URLSearchParams();
  const entries: [string, unknown][] = Object.entries(query);
  for (const [name, value] of entries) {
    const text = textValue(value);
    if (text !== undefined) search.set(name, text);
  }
  const text = search.toString();
  return text === '' ? '' : `?${text}`;
}

/**
 * A multipart form: text fields first (a streaming reader has them before the files), then the files.
 * A null field is sent empty, which the schemas read as "clear this".
 */
function formData(fields: object, files: object): FormData {
  const form = new FormData();
  const entries: [string, unknown][] = Object.entries(fields);
  for (const [name, value] of entries) {
    if (value === undefined) continue;
    form.set(name, value === null ? '' : (textValue(value) ?? ''));
  }
  const blobs: [string, unknown][] = Object.entries(files);
  for (const [name, file] of blobs) {
    if (file instanceof Blob) form.set(name, file, file instanceof File ? file.name : name);
  }
  return form;
}

function hasFile(files: unknown): files is object {
  if (typeof files !== 'object' || files === null) return false;
  const values: unknown[] = Object.values(files);
  return values.some((file) => file instanceof Blob);
}

function requestBody(
  endpoint: Endpoint,
  body: unknown,
  files: unknown,
): { body?: BodyInit; contentType?: string } {
  if (body === undefined) return {};
  // A form endpoint takes JSON when no file comes along, and multipart otherwise.
  if (endpoint.form && typeof body === 'object' && body !== null && hasFile(files)) {
    return { body: formData(body, files) };
  }
  return { body: JSON.stringify(body), contentType: 'application/json' };
}

const unauthenticatedListeners = new Set<() => void>();

/**
 * Calls `listener` each time the server answers a request `unauthenticated` (401: its session is missing,
 * expired or was ended elsewhere), whichever part of the app sent it; returns the unsubscribe.
 */
export function onUnauthenticated(listener: () => void): () => void {
  const held = () => {
    listener();
  };
  unauthenticatedListeners.add(held);
  return () => {
    unauthenticatedListeners.delete(held);
  };
}

/**
 * What a call adds to its endpoint's input. `keepalive` lets a small request outlive the page (Fetch's
 * keepalive, at most 64 KB of body), so a toggle sent just before a reload or a link away still arrives.
 */
interface CallOptions {
  signal?: AbortSignal;
  keepalive?: boolean;
}

/** What every endpoint's input is, seen from here: the endpoint's own type has already checked it. */
interface CallInput extends CallOptions {
  params?: object;
  query?: object;
  body?: unknown;
  files?: unknown;
}

type CallArguments<E extends Endpoint> =
  Record<string, never> extends EndpointInput<E>
    ? [input?: EndpointInput<E> & CallOptions]
    : [input: EndpointInput<E> & CallOptions];

/**
 * Calls one endpoint of the contract (src/shared/contract): the path, method and body encoding come from
 * its definition, and the answer is checked against its response schema, so a field the server renamed is
 * an `unexpected_response` here rather than a page that breaks later. Failures reject with an ApiError;
 * cancellation stays an AbortError so callers (TanStack Query, unmounts) can ignore it.
 */
export async function callApi<E extends Endpoint>(
  endpoint: E,
  ...[input]: CallArguments<E>
): Promise<EndpointResponse<E>> {
  const call: CallInput = input ?? {};
  const url = fillPath(endpoint.path, call.params ?? {}) + queryString(call.query);
  const { body, contentType } = requestBody(endpoint, call.body, call.files);
  const headers: Record<string, string> = { Accept: 'application/json' };
  if (contentType) headers['Content-Type'] = contentType;
  let response: Response;
  try {
    response = await fetch(url, {
      method: endpoint.method,
      headers,
      credentials: 'same-origin',
      body,
      signal: call.signal,
      ...(call.keepalive ? { keepalive: true } : {}),
    });
  } catch (error) {
    if (error instanceof DOMException && error.name === 'AbortError') throw error;
    throw new ApiError({ status: 0, code: 'network_error', message: networkErrorMessage });
  }
  const payload = await readJson(response);
  if (!response.ok) {
    const error = toApiError(response.status, payload, response.headers.get('Retry-After'));
    if (error.status === 401 && error.code === 'unauthenticated') {
      // Told apart from the caller's own handling, which a listener can neither change nor break.
      for (const listener of unauthenticatedListeners) queueMicrotask(listener);
    }
    throw error;
  }
  // In the built app (and its tests) `response` is the contract's answer shape checked without zod
  // (src/web/lib/wire-check.ts, ADR 0032); its `safeParse` answers as zod's does.
  const parsed = endpoint.response.safeParse(response.status === 204 ? null : payload);
  if (!parsed.success) {
    throw new ApiError({
      status: response.status,
      code: 'unexpected_response',
      message: 'The server sent an answer we could not read. Please try again.',
    });
  }
  return parsed.data as EndpointResponse<E>;
}
