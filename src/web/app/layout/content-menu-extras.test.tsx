// @vitest-environment jsdom
import { afterEach, describe, expect, it } from 'vitest';
import { cleanup, render } from '@testing-library/react';
import { memo } from 'react';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { createMemoryRouter, RouterProvider } from 'react-router';
import { AuthContext, type AuthState } from '@web/features/auth/auth-state.js';
import { ContentMenuSlot } from '@web/lib/content-menu.js';
import { signedIn } from '@web/test/render-route.js';
import { makeUserDocument } from '@web/test/user-fixtures.js';
import { ContentMenuProvider } from './content-menu-extras.js';

afterEach(cleanup);

/** Each time a card's menu entries render, with the labels they offered. */
const renders: string[][] = [];

/** A memoised card, as post and comment cards are: only its menu's own inputs render it again. */
const Card = memo(function Card() {
  return (
    <ContentMenuSlot
      target={{ kind: 'post', id: '7', author: { uid: 'u2', name: 'Grace' } }}
      returnFocus={() => null}
    >
      {(extra) => {
        renders.push(extra.map((action) => action.label));
        return null;
      }}
    </ContentMenuSlot>
  );
});

function renderMenus(initial: AuthState) {
  renders.length = 0;
  const queryClient = new QueryClient();
  const router = createMemoryRouter(
    [
      {
        path: '/',
        element: (
          <ContentMenuProvider>
            <Card />
          </ContentMenuProvider>
        ),
      },
    ],
    { initialEntries: ['/'] },
  );
  const tree = (auth: AuthState) => (
    <QueryClientProvider client={queryClient}>
      <AuthContext value={auth}>
        <RouterProvider router={router} />
      </AuthContext>
    </QueryClientProvider>
  );
  const view = render(tree(initial));
  return { change: (auth: AuthState) => view.rerender(tree(auth)) };
}

const withUser = (overrides: Parameters<typeof makeUserDocument>[0]): AuthState => ({
  ...signedIn(),
  user: makeUserDocument(overrides),
});

describe('the More menus’ entries', () => {
  it("do not render again when the rest of the reader's document changes", () => {
    const menus = renderMenus(signedIn());
    expect(renders).toHaveLength(1);
    expect(renders[0]).toContain('Report');
    menus.change(withUser({ counts: { posts: 4, followers: 12, following: 3 }, bio: 'Hello' }));
    expect(renders).toHaveLength(1);
  });

  it('follow what they read: a suspension takes Report away at once', () => {
    const menus = renderMenus(signedIn());
    menus.change(withUser({ suspended: true }));
    expect(renders).toHaveLength(2);
    expect(renders[1]).not.toContain('Report');
  });

  it('offer a visitor to sign in', () => {
    const menus = renderMenus(signedIn());
    menus.change({ isLoading: false, user: null, authenticated: false, me: null });
    expect(renders.at(-1)).toEqual(['Sign in to report']);
  });
});
