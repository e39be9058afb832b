import { describe, expect, it } from 'vitest';
import {
  avatarSources,
  coverSizes,
  coverSources,
  postImageSizes,
  srcSetOf,
} from './image-sources.js';

describe('srcSetOf', () => {
  it('lists each width once, narrowest first, with w descriptors', () => {
    expect(
      srcSetOf([
        { url: '/media/posts/a-feed.webp', width: 1200 },
        { url: '/media/posts/a-small.webp', width: 600 },
        { url: '/media/posts/a-again.webp', width: 1200 },
      ]),
    ).toBe('/media/posts/a-small.webp 600w, /media/posts/a-again.webp 1200w');
  });

  it('gives no srcset when there is nothing to choose (an image stored before the small rendition)', () => {
    expect(srcSetOf([{ url: '/media/posts/old-feed.webp', width: 1200 }])).toBeUndefined();
    expect(srcSetOf([])).toBeUndefined();
  });
});

describe('postImageSizes', () => {
  it('shows one image across the post and two to four in half of it, less the gutters', () => {
    expect(postImageSizes(1)).toBe('(max-width: 672px) calc(100vw - 58px), 590px');
    expect(postImageSizes(2)).toBe('(max-width: 672px) calc(50vw - 31px), 293px');
    expect(postImageSizes(4)).toBe('(max-width: 672px) calc(50vw - 31px), 293px');
  });
});

describe('coverSources', () => {
  it('offers 750 and 1500 when the small cover exists, else the 1500 alone', () => {
    expect(srcSetOf(coverSources('/c.webp', '/c-small.webp'))).toBe(
      '/c-small.webp 750w, /c.webp 1500w',
    );
    expect(srcSetOf(coverSources('/c.webp', null))).toBeUndefined();
    expect(coverSizes).toBe('(max-width: 896px) 100vw, 896px');
  });
});

describe('avatarSources', () => {
  it('pairs the 96 thumb with the 400 avatar', () => {
    expect(srcSetOf(avatarSources('/a.webp', '/a-thumb.webp'))).toBe(
      '/a-thumb.webp 96w, /a.webp 400w',
    );
  });

  it('offers no choice with one rendition (authors carry the thumb only)', () => {
    expect(srcSetOf(avatarSources(null, '/a-thumb.webp'))).toBeUndefined();
    expect(srcSetOf(avatarSources('/a.webp', '/a.webp'))).toBeUndefined();
    expect(avatarSources(null, null)).toEqual([]);
  });
});
