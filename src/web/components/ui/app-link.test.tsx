// @vitest-environment jsdom
import { cleanup, fireEvent, render, screen } from '@testing-library/react';
import { MemoryRouter, Route, Routes } from 'react-router';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { AppLink, AppNavigateContext, type AppNavigate } from './app-link.js';

afterEach(() => {
  cleanup();
  window.history.replaceState(null, '', '/');
});

/**
 * Clicks the link and answers whether the app took the click (prevented the browser's navigation). The
 * browser's part is then called off too: the test's document does not navigate.
 */
function clickTaken(link: HTMLElement, init: MouseEventInit = {}): boolean {
  let taken = false;
  const after = (event: Event) => {
    taken = event.defaultPrevented;
    event.preventDefault();
  };
  window.addEventListener('click', after);
  fireEvent.click(link, { button: 0, ...init });
  window.removeEventListener('click', after);
  return taken;
}

function renderLink(navigate: AppNavigate, props: Partial<Parameters<typeof AppLink>[0]> = {}) {
  render(
    <AppNavigateContext.Provider value={navigate}>
      <AppLink to="/post/3" className="post__time" {...props}>
        3 minutes ago
      </AppLink>
    </AppNavigateContext.Provider>,
  );
  return screen.getByRole('link', { name: '3 minutes ago' });
}

describe('AppLink', () => {
  it('is a plain link to its path, with the attributes it is given', () => {
    const link = renderLink(vi.fn());
    expect(link.getAttribute('href')).toBe('/post/3');
    expect(link.className).toBe('post__time');
  });

  it('navigates in the app on a plain click, adding an entry', () => {
    const navigate = vi.fn<AppNavigate>();
    const link = renderLink(navigate);
    expect(clickTaken(link)).toBe(true);
    expect(navigate).toHaveBeenCalledExactlyOnceWith('/post/3', { replace: false });
  });

  it('replaces the entry when the link is to the page already shown', () => {
    window.history.replaceState(null, '', '/post/3');
    const navigate = vi.fn<AppNavigate>();
    expect(clickTaken(renderLink(navigate))).toBe(true);
    expect(navigate).toHaveBeenCalledExactlyOnceWith('/post/3', { replace: true });
  });

  it.each([
    ['Ctrl', { ctrlKey: true }],
    ['Cmd', { metaKey: true }],
    ['Shift', { shiftKey: true }],
    ['Alt', { altKey: true }],
    ['the middle button', { button: 1 }],
  ])('leaves a click with %s to the browser', (_name, init) => {
    const navigate = vi.fn<AppNavigate>();
    const link = renderLink(navigate);
    expect(clickTaken(link, init)).toBe(false);
    expect(navigate).not.toHaveBeenCalled();
  });

  it('leaves a link with another target to the browser', () => {
    const navigate = vi.fn<AppNavigate>();
    const link = renderLink(navigate, { target: '_blank' });
    expect(clickTaken(link)).toBe(false);
    expect(navigate).not.toHaveBeenCalled();
  });

  it('runs its own click handler first, which may keep the click from navigating', () => {
    const navigate = vi.fn<AppNavigate>();
    const onClick = vi.fn((event: { preventDefault(): void }) => {
      event.preventDefault();
    });
    clickTaken(renderLink(navigate, { onClick }));
    expect(onClick).toHaveBeenCalledOnce();
    expect(navigate).not.toHaveBeenCalled();
  });

  it("is React Router's Link where no navigate is handed down", () => {
    render(
      <MemoryRouter initialEntries={['/feed']}>
        <Routes>
          <Route path="/feed" element={<AppLink to="/post/3">3 minutes ago</AppLink>} />
          <Route path="/post/3" element={<p>The post</p>} />
        </Routes>
      </MemoryRouter>,
    );
    expect(clickTaken(screen.getByRole('link', { name: '3 minutes ago' }))).toBe(true);
    expect(screen.getByText('The post')).toBeTruthy();
  });
});
