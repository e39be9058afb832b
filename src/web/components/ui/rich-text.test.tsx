// @vitest-environment jsdom
import { cleanup, render as renderDom, screen } from '@testing-library/react';
import type { ReactNode } from 'react';
import { MemoryRouter } from 'react-router';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { RichText } from './rich-text.js';

/** How many times the link finder's module was evaluated (its chunk loaded). */
const finder = vi.hoisted(() => ({ loads: 0 }));

vi.mock('@web/lib/link-finder.js', async (importOriginal) => {
  finder.loads += 1;
  return importOriginal();
});

afterEach(cleanup);

/** Mentions and hashtags are the app's own links, which need a router. */
function render(ui: ReactNode) {
  renderDom(<MemoryRouter>{ui}</MemoryRouter>);
}

// The tests share the module's one link finder, so they run in order: plain text first, before it loads.
describe('RichText (ADR 0054)', () => {
  it('shows plain text at once and never loads the link finder for it', async () => {
    render(<RichText as="div" text={'A quiet day. Nothing to see: really\nnothing.'} hashtags />);
    expect(screen.getByText(/A quiet day\. Nothing to see: really/).textContent).toBe(
      'A quiet day. Nothing to see: really\nnothing.',
    );
    // Give a load every chance to start: the page has settled (no first page is watched here).
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(finder.loads).toBe(0);
    expect(screen.queryByRole('link')).toBeNull();
  });

  it('shows a text that may hold links as plain text, then with its links once the finder is in', async () => {
    const text = 'Love #Hearth, thanks @Ada_L: see example.org';
    render(<RichText as="div" text={text} mentions hashtags />);
    // The first render does not wait for the finder: the whole text is there, without links.
    expect(screen.getByText(text)).toBeTruthy();
    expect(screen.queryByRole('link')).toBeNull();

    const hashtag = await screen.findByRole('link', { name: '#Hearth' });
    expect(hashtag.getAttribute('href')).toBe('/tags/hearth');
    expect(screen.getByRole('link', { name: '@Ada_L' }).getAttribute('href')).toBe('/ada_l');
    const outside = screen.getByRole('link', { name: 'example.org' });
    expect(outside.getAttribute('href')).toBe('https://example.org/');
    expect(outside.getAttribute('rel')).toBe('nofollow noopener noreferrer ugc');
    // The text reads the same before and after.
    expect(hashtag.parentElement?.textContent).toBe(text);
    expect(finder.loads).toBe(1);
  });

  it('links a later text at once, with the finder already in', () => {
    render(<RichText text="More #news" hashtags />);
    expect(screen.getByRole('link', { name: '#news' }).getAttribute('href')).toBe('/tags/news');
    expect(finder.loads).toBe(1);
  });
});
