import { expect, onTestFinished, vi } from 'vitest';

/** A JSON answer of `status`; a 204 answers with no body, as the server's does. */
export function jsonResponse(body: unknown, status = 200, headers?: HeadersInit): Response {
  return new Response(status === 204 ? null : JSON.stringify(body), { status, headers });
}

/** Replaces the global fetch with a spy running `implementation`, until the current test ends. */
export function stubFetch(implementation: typeof fetch) {
  const spy = vi.fn<typeof fetch>(implementation);
  vi.stubGlobal('fetch', spy);
  // Every stub is undone with its test, so no file needs its own afterEach to keep fetch from leaking.
  onTestFinished(() => {
    vi.unstubAllGlobals();
  });
  return spy;
}

/** Stubs fetch to answer every request with `body` as JSON, and returns the spy. */
export function stubJsonAnswer(body: unknown, status = 200, headers?: HeadersInit) {
  return stubFetch(() => Promise.resolve(jsonResponse(body, status, headers)));
}

/**
 * Checks a like toggle's request both ways (on, then off) with fetch stubbed: PUT to `path`, answered
 * `answer(true)`, then DELETE, answered `answer(false)`, each resolving to its answer and each kept alive
 * past the page, so a toggle sent just before a reload still reaches the server.
 */
export async function expectKeptAliveToggle<T>(
  send: (on: boolean) => Promise<T>,
  answer: (on: boolean) => T,
  path: string,
): Promise<void> {
  const spy = stubFetch((_url, init) =>
    Promise.resolve(jsonResponse(answer(init?.method === 'PUT'))),
  );
  expect([await send(true), await send(false)]).toEqual([answer(true), answer(false)]);
  expect(spy.mock.calls.map(([url, init]) => [url, init?.method, init?.keepalive])).toEqual([
    [path, 'PUT', true],
    [path, 'DELETE', true],
  ]);
}
