// @vitest-environment jsdom
import { afterEach, describe, expect, it } from 'vitest';
import { cleanup, renderHook } from '@testing-library/react';
import type { ReactNode } from 'react';
import { AuthContext, type AuthState } from '@web/features/auth/auth-state.js';
import { signedIn, signedOut } from '@web/test/render-route.js';
import { makeUserDocument } from '@web/test/user-fixtures.js';
import { usePostViewer } from './use-post-viewer.js';

afterEach(cleanup);

/** Renders the hook under an auth state that `rerender` replaces. */
function renderViewer(initial: AuthState) {
  let auth = initial;
  const wrapper = ({ children }: { children: ReactNode }) => (
    <AuthContext value={auth}>{children}</AuthContext>
  );
  const view = renderHook(() => usePostViewer(), { wrapper });
  return {
    current: () => view.result.current,
    change: (next: AuthState) => {
      auth = next;
      view.rerender();
    },
  };
}

const withUser = (overrides: Parameters<typeof makeUserDocument>[0]): AuthState => ({
  ...signedIn(),
  user: makeUserDocument(overrides),
});

describe('usePostViewer', () => {
  it('is undefined while the session loads and null when nobody is signed in', () => {
    const view = renderViewer({ ...signedOut, isLoading: true });
    expect(view.current()).toBeUndefined();
    view.change(signedOut);
    expect(view.current()).toBeNull();
  });

  it('says who reads and what they may do', () => {
    const view = renderViewer(withUser({ role: 'admin' }));
    expect(view.current()).toEqual({ uid: 'u1', isAdmin: true, active: true, suspended: false });
    view.change(withUser({ suspended: true }));
    // A suspended account reads but does not write.
    expect(view.current()).toEqual({ uid: 'u1', isAdmin: false, active: false, suspended: true });
  });

  it("keeps the same object when the rest of the account's document changes", () => {
    const view = renderViewer(signedIn());
    const first = view.current();
    // A new copy from the socket, with other counts and a picture: post cards need not render again.
    view.change(
      withUser({ counts: { posts: 3, followers: 9, following: 1 }, avatarAlt: 'Ada at the sea' }),
    );
    expect(view.current()).toBe(first);
  });

  it('is a new object when what the cards read changes', () => {
    const view = renderViewer(signedIn());
    const first = view.current();
    view.change(withUser({ role: 'admin' }));
    expect(view.current()).not.toBe(first);
    const second = view.current();
    view.change(withUser({ role: 'admin', active: false }));
    expect(view.current()).not.toBe(second);
    expect(view.current()).toMatchObject({ active: false });
  });
});
