import { describe, expect, it, vi } from 'vitest';
import { z } from 'zod';
import { defineEndpoint } from '@shared/contract/endpoint.js';
import { stubFetch, stubJsonAnswer } from '@web/test/fetch-stub.js';
import {
  ApiError,
  callApi,
  isApiError,
  networkErrorMessage,
  onUnauthenticated,
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

const ok = z.object({ ok: z.literal(true) });
const testEndpoints = {
  signOut: defineEndpoint({
    id: 'testSignOut',
    method: 'POST',
    path: '/api/test/sign-out',
    tag: 'Auth',
    summary: 'test',
    access: 'public',
    body: z.object({}),
    status: 200,
    response: ok,
  }),
  revoke: defineEndpoint({
    id: 'testRevoke',
    method: 'DELETE',
    path: '/api/test/sessions/{id}',
    tag: 'Account',
    summary: 'test',
    access: 'signed-in',
    params: z.object({ id: z.string() }),
    status: 204,
    response: z.null(),
  }),
  list: defineEndpoint({
    id: 'testList',
    method: 'GET',
    path: '/api/test/users/{uid}/items',
    tag: 'Users',
    summary: 'test',
    access: 'public',
    params: z.object({ uid: z.string() }),
    query: z.object({ cursor: z.string().optional(), limit: z.coerce.number().optional() }),
    status: 200,
    response: z.object({ items: z.array(z.string()) }),
  }),
  edit: defineEndpoint({
    id: 'testEdit',
    method: 'PATCH',
    path: '/api/test/profile',
    tag: 'Profiles',
    summary: 'test',
    access: 'active',
    form: {
      fields: z.object({ bio: z.string().optional(), removeAvatar: z.boolean().optional() }),
      files: ['avatar'],
      maxBytes: 1024,
    },
    status: 200,
    response: ok,
  }),
};

describe('callApi', () => {
  it('sends same-origin JSON to the endpoint and returns the checked body', async () => {
    const spy = stubJsonAnswer({ ok: true });
    await expect(callApi(testEndpoints.signOut, { body: {} })).resolves.toEqual({ ok: true });
    const [path, init] = spy.mock.calls[0] ?? [];
    expect(path).toBe('/api/test/sign-out');
    expect(init).toMatchObject({
      method: 'POST',
      credentials: 'same-origin',
      body: '{}',
      headers: { 'Content-Type': 'application/json', Accept: 'application/json' },
    });
  });

  it('keeps a request alive past the page only when the call asks for it', async () => {
    const spy = stubJsonAnswer(null, 204);
    await callApi(testEndpoints.revoke, { params: { id: 's1' }, keepalive: true });
    await callApi(testEndpoints.revoke, { params: { id: 's2' } });
    expect(spy.mock.calls.map(([, init]) => init?.keepalive)).toEqual([true, undefined]);
  });

  it('fills and encodes path parameters and leaves out empty query values', async () => {
    const spy = stubJsonAnswer({ items: [] });
    await callApi(testEndpoints.list, {
      params: { uid: 'a/b c' },
      query: { cursor: undefined, limit: 5 },
    });
    expect(spy.mock.calls[0]?.[0]).toBe('/api/test/users/a%2Fb%20c/items?limit=5');
  });

  it('answers null for a 204 and sends DELETE without a body', async () => {
    const spy = stubJsonAnswer(null, 204);
    await expect(callApi(testEndpoints.revoke, { params: { id: 's1' } })).resolves.toBeNull();
    expect(spy.mock.calls[0]?.[1]).toMatchObject({ method: 'DELETE', body: undefined });
  });

  it('sends a form endpoint as JSON without files and as multipart with them', async () => {
    const spy = stubJsonAnswer({ ok: true });
    await callApi(testEndpoints.edit, { body: { bio: 'Hi' } });
    expect(spy.mock.calls[0]?.[1]?.body).toBe(JSON.stringify({ bio: 'Hi' }));
    const avatar = new File([new Uint8Array([1])], 'me.png', { type: 'image/png' });
    await callApi(testEndpoints.edit, {
      body: { bio: 'Hi', removeAvatar: false },
      files: { avatar },
    });
    const init = spy.mock.calls[1]?.[1];
    expect(init?.headers).toEqual({ Accept: 'application/json' });
    const form = init?.body;
    expect(form).toBeInstanceOf(FormData);
    if (!(form instanceof FormData)) return;
    expect([...form.keys()]).toEqual(['bio', 'removeAvatar', 'avatar']);
    expect(form.get('removeAvatar')).toBe('false');
  });

  it('turns a failed fetch into a friendly network error', async () => {
    stubFetch(() => Promise.reject(new TypeError('Failed to fetch')));
    const error: unknown = await callApi(testEndpoints.signOut, { body: {} }).catch(
      (caught: unknown) => caught,
    );
    expect(isApiError(error, 'network_error')).toBe(true);
    expect(error).toMatchObject({ status: 0, message: networkErrorMessage });
  });

  it('lets cancellation through unchanged', async () => {
    stubFetch(() => Promise.reject(new DOMException('Aborted', 'AbortError')));
    await expect(callApi(testEndpoints.signOut, { body: {} })).rejects.toMatchObject({
      name: 'AbortError',
    });
  });

  it('rejects an error response with its Retry-After', async () => {
    stubJsonAnswer({ error: { code: 'rate_limited', message: 'Too many requests.' } }, 429, {
      'Retry-After': '90',
    });
    await expect(callApi(testEndpoints.signOut, { body: {} })).rejects.toMatchObject({
      code: 'rate_limited',
      retryAfterSeconds: 90,
      message: 'Too many attempts. Try again in 2 minutes.',
    });
  });

  it('tells the unauthenticated listeners of a 401 unauthenticated answer, and of no other', async () => {
    const listener = vi.fn();
    const stop = onUnauthenticated(listener);
    const failWith = async (status: number, code: string) => {
      stubJsonAnswer({ error: { code, message: 'No.' } }, status);
      await callApi(testEndpoints.signOut, { body: {} }).catch(() => undefined);
      await Promise.resolve();
    };
    await failWith(401, 'unauthenticated');
    expect(listener).toHaveBeenCalledTimes(1);
    await failWith(401, 'invalid_credentials');
    await failWith(403, 'forbidden');
    await failWith(404, 'not_found');
    expect(listener).toHaveBeenCalledTimes(1);
    stop();
    await failWith(401, 'unauthenticated');
    expect(listener).toHaveBeenCalledTimes(1);
  });

  it('rejects a success whose body is not JSON or not what the contract says', async () => {
    stubFetch(() => Promise.resolve(new Response('<html></html>', { status: 200 })));
    await expect(callApi(testEndpoints.signOut, { body: {} })).rejects.toMatchObject({
      code: 'unexpected_response',
    });
    stubJsonAnswer({ ok: 'yes' });
    await expect(callApi(testEndpoints.signOut, { body: {} })).rejects.toBeInstanceOf(ApiError);
  });
});
