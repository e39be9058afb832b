import { afterEach, describe, expect, it, vi } from 'vitest';
import {
  ApiError,
  apiDelete,
  apiGet,
  apiPatchForm,
  apiPost,
  isApiError,
  networkErrorMessage,
  parseRetryAfter,
  rateLimitMessage,
  toApiError,
} from './api-client.js';

describe('parseRetryAfter', () => {
  it('reads delta-seconds', () => {
    expect(parseRetryAfter('120')).toBe(120);
  });
  it('reads an HTTP date relative to now', () => {
    const now = Date.parse('2025-01-01T00:00:00Z');
    expect(parseRetryAfter('Wed, 01 Jan 2025 00:02:30 GMT', now)).toBe(150);
  });
  it('is null when absent or unreadable', () => {
    expect(parseRetryAfter(null)).toBeNull();
    expect(parseRetryAfter('')).toBeNull();
    expect(parseRetryAfter('soon')).toBeNull();
  });
});

describe('rateLimitMessage', () => {
  it('rounds up to whole minutes', () => {
    expect(rateLimitMessage(240)).toBe('Too many attempts. Try again in 4 minutes.');
    expect(rateLimitMessage(241)).toBe('Too many attempts. Try again in 5 minutes.');
  });
  it('says one minute in the singular, also for a few seconds', () => {
    expect(rateLimitMessage(5)).toBe('Too many attempts. Try again in 1 minute.');
  });
  it('still says what to do without a Retry-After', () => {
    expect(rateLimitMessage(null)).toMatch(/^Too many attempts\. Try again/);
  });
});

describe('toApiError', () => {
  it('keeps the server code, message and field errors', () => {
    const error = toApiError(
      400,
      {
        error: {
          code: 'validation_failed',
          message: 'Check the highlighted fields.',
          fields: { username: 'That username is taken.' },
        },
      },
      null,
    );
    expect(error).toBeInstanceOf(ApiError);
    expect(error.status).toBe(400);
    expect(error.code).toBe('validation_failed');
    expect(error.message).toBe('Check the highlighted fields.');
    expect(error.fields).toEqual({ username: 'That username is taken.' });
    expect(error.retryAfterSeconds).toBeNull();
  });

  it('words a rate limit with the Retry-After minutes', () => {
    const error = toApiError(
      429,
      { error: { code: 'rate_limited', message: 'Slow down.' } },
      '300',
    );
    expect(error.code).toBe('rate_limited');
    expect(error.retryAfterSeconds).toBe(300);
    expect(error.message).toBe('Too many attempts. Try again in 5 minutes.');
  });

  it('falls back to the status for a body that is not ours', () => {
    expect(toApiError(502, '<html>Bad gateway</html>', null)).toMatchObject({
      status: 502,
      code: 'internal',
      fields: {},
    });
    expect(toApiError(404, undefined, null).code).toBe('not_found');
    expect(toApiError(429, undefined, '60').message).toBe(
      'Too many attempts. Try again in 1 minute.',
    );
  });

  it('ignores field messages that are not strings', () => {
    const error = toApiError(
      400,
      { error: { code: 'bad_request', message: 'No.', fields: { a: 1, b: 'B is wrong.' } } },
      null,
    );
    expect(error.fields).toEqual({ b: 'B is wrong.' });
  });
});

describe('apiRequest', () => {
  afterEach(() => {
    vi.unstubAllGlobals();
  });

  function stubFetch(implementation: typeof fetch) {
    const spy = vi.fn(implementation);
    vi.stubGlobal('fetch', spy);
    return spy;
  }

  it('sends same-origin JSON and returns the parsed body', async () => {
    const spy = stubFetch(() =>
      Promise.resolve(new Response(JSON.stringify({ ok: true }), { status: 200 })),
    );
    await expect(apiPost('/api/auth/sign-out')).resolves.toEqual({ ok: true });
    const [path, init] = spy.mock.calls[0] ?? [];
    expect(path).toBe('/api/auth/sign-out');
    expect(init).toMatchObject({
      method: 'POST',
      credentials: 'same-origin',
      body: '{}',
      headers: { 'Content-Type': 'application/json', Accept: 'application/json' },
    });
  });

  it('sends a FormData body as it is, leaving its multipart Content-Type to fetch', async () => {
    const spy = stubFetch(() =>
      Promise.resolve(new Response(JSON.stringify({ uid: 'u1' }), { status: 200 })),
    );
    const form = new FormData();
    form.append('bio', 'Hello');
    await expect(apiPatchForm('/api/users/u1/profile', form)).resolves.toEqual({ uid: 'u1' });
    const [, init] = spy.mock.calls[0] ?? [];
    expect(init?.method).toBe('PATCH');
    expect(init?.body).toBe(form);
    expect(init?.headers).toEqual({ Accept: 'application/json' });
  });

  it('sends DELETE without a body', async () => {
    const spy = stubFetch(() =>
      Promise.resolve(new Response(JSON.stringify({ ok: true }), { status: 200 })),
    );
    await expect(apiDelete('/api/account/sessions/s1')).resolves.toEqual({ ok: true });
    const [path, init] = spy.mock.calls[0] ?? [];
    expect(path).toBe('/api/account/sessions/s1');
    expect(init).toMatchObject({ method: 'DELETE', body: undefined });
  });

  it('turns a failed fetch into a friendly network error', async () => {
    stubFetch(() => Promise.reject(new TypeError('Failed to fetch')));
    const error: unknown = await apiGet('/api/instance').catch((caught: unknown) => caught);
    expect(isApiError(error, 'network_error')).toBe(true);
    expect((error as ApiError).status).toBe(0);
    expect((error as ApiError).message).toBe(networkErrorMessage);
  });

  it('lets cancellation through unchanged', async () => {
    stubFetch(() => Promise.reject(new DOMException('Aborted', 'AbortError')));
    await expect(apiGet('/api/instance')).rejects.toMatchObject({ name: 'AbortError' });
  });

  it('rejects an error response with its Retry-After', async () => {
    stubFetch(() =>
      Promise.resolve(
        new Response(
          JSON.stringify({ error: { code: 'rate_limited', message: 'Too many requests.' } }),
          { status: 429, headers: { 'Retry-After': '90' } },
        ),
      ),
    );
    await expect(apiPost('/api/auth/sign-in', {})).rejects.toMatchObject({
      code: 'rate_limited',
      retryAfterSeconds: 90,
      message: 'Too many attempts. Try again in 2 minutes.',
    });
  });

  it('rejects a success whose body is not JSON', async () => {
    stubFetch(() => Promise.resolve(new Response('<html></html>', { status: 200 })));
    await expect(apiGet('/api/instance')).rejects.toMatchObject({ code: 'unexpected_response' });
  });
});
