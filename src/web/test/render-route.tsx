import type { ReactNode } from 'react';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { render } from '@testing-library/react';
import { createMemoryRouter, RouterProvider } from 'react-router';
import { AuthContext, type AuthState } from '@web/features/auth/auth-state.js';
import { makeMe, makeUserDocument } from './user-fixtures.js';

/** Nobody signed in, the session known. */
export const signedOut: AuthState = {
  isLoading: false,
  user: null,
  authenticated: false,
  me: null,
};

/** An active account (Ada, uid u1) signed in. */
export function signedIn(): AuthState {
  return { isLoading: false, user: makeUserDocument(), authenticated: true, me: makeMe() };
}

interface RenderRouteOptions {
  /** The route pattern the element is mounted at ("/search", "/unsubscribe/:token"). */
  path: string;
  /** Where the test starts ("/search?q=ada"). */
  url: string;
  element: ReactNode;
  auth?: AuthState;
}

/**
 * Renders one page as the app does (a data router, a query client, the auth context), with a stand-in
 * at every other address so a test can see where a link or a redirect went.
 */
export function renderRoute({ path, url, element, auth = signedOut }: RenderRouteOptions) {
  const queryClient = new QueryClient({
    defaultOptions: { queries: { retry: false }, mutations: { retry: false } },
  });
  const router = createMemoryRouter(
    [
      { path, element },
      { path: '*', element: <p>Another page</p> },
    ],
    { initialEntries: [url] },
  );
  const view = render(
    <QueryClientProvider client={queryClient}>
      <AuthContext value={auth}>
        <RouterProvider router={router} />
      </AuthContext>
    </QueryClientProvider>,
  );
  return { ...view, router, queryClient };
}

/** A request as the fetch stub saw it: method, path with query, and the JSON body if any. */
export interface SeenRequest {
  method: string;
  url: URL;
  body: unknown;
  signal: AbortSignal | null;
}

/** Reads a fetch call's arguments into a SeenRequest (relative URLs are read against http://test). */
export function seenRequest(input: RequestInfo | URL, init?: RequestInit): SeenRequest {
  const href = typeof input === 'string' ? input : input instanceof URL ? input.href : input.url;
  const body = typeof init?.body === 'string' ? (JSON.parse(init.body) as unknown) : undefined;
  return {
    method: init?.method ?? 'GET',
    url: new URL(href, 'http://test'),
    body,
    signal: init?.signal ?? null,
  };
}
