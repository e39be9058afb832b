// @vitest-environment jsdom
import { act, cleanup, render, screen } from '@testing-library/react';
import { MemoryRouter } from 'react-router';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { noticeLifetimeMs } from '@web/lib/use-self-clearing.js';
import { ShellNotice, type ShellNoticeState } from './shell-notice.js';

function renderNotice(notice: ShellNoticeState | null, expectingOutcome = false) {
  const onClear = vi.fn();
  const view = render(
    <MemoryRouter>
      <ShellNotice notice={notice} expectingOutcome={expectingOutcome} onClear={onClear} />
    </MemoryRouter>,
  );
  return { ...view, onClear };
}

afterEach(() => {
  cleanup();
  vi.useRealTimers();
});

describe('ShellNotice', () => {
  it('adds no live region to a page while it has nothing to say', () => {
    renderNotice(null);
    expect(screen.queryByRole('status')).toBeNull();
    expect(screen.queryByRole('alert')).toBeNull();
  });

  it('has its status region ready, empty, while the Write dialog is open', () => {
    renderNotice(null, true);
    expect(screen.getByRole('status').textContent).toBe('');
  });

  it('says the post is published, links to it, and clears itself', () => {
    vi.useFakeTimers();
    const { onClear } = renderNotice({ kind: 'published', postId: '42' });
    const status = screen.getByRole('status');
    expect(status.textContent).toContain('Your post is published.');
    expect(screen.getByRole('link', { name: 'View post' }).getAttribute('href')).toBe('/post/42');
    act(() => {
      vi.advanceTimersByTime(noticeLifetimeMs);
    });
    expect(onClear).toHaveBeenCalledOnce();
  });

  it('keeps a failure until it is dismissed', () => {
    vi.useFakeTimers();
    const { onClear } = renderNotice({ kind: 'load-failed', message: 'That could not be opened.' });
    expect(screen.getByRole('alert').textContent).toContain('That could not be opened.');
    act(() => {
      vi.advanceTimersByTime(noticeLifetimeMs * 3);
    });
    expect(onClear).not.toHaveBeenCalled();
    act(() => {
      screen.getByRole('button', { name: 'Dismiss' }).click();
    });
    expect(onClear).toHaveBeenCalledOnce();
  });
});
