import { describe, expect, it } from 'vitest';
import {
  parseRenditions,
  postImageSources,
  postRenditions,
  profileRenditions,
} from './renditions.js';

const url = (key: string) => `/media/${key}`;

describe('post image sources', () => {
  it('lists the small, medium and feed renditions narrowest first, never the full-size one', () => {
    const renditions = parseRenditions(
      JSON.stringify({
        full: { key: 'posts/a-full.webp', width: 2560, height: 1440 },
        feed: { key: 'posts/a-feed.webp', width: 1200, height: 675 },
        medium: { key: 'posts/a-medium.webp', width: 800, height: 450 },
        small: { key: 'posts/a-small.webp', width: 600, height: 338 },
      }),
    );
    expect(postImageSources(renditions, url)).toEqual([
      { url: '/media/posts/a-small.webp', width: 600 },
      { url: '/media/posts/a-medium.webp', width: 800 },
      { url: '/media/posts/a-feed.webp', width: 1200 },
    ]);
  });

  it('lists what an image stored before the medium rendition has', () => {
    const renditions = parseRenditions(
      JSON.stringify({
        full: { key: 'posts/d-full.webp', width: 2560, height: 1440 },
        feed: { key: 'posts/d-feed.webp', width: 1200, height: 675 },
        small: { key: 'posts/d-small.webp', width: 600, height: 338 },
      }),
    );
    expect(postImageSources(renditions, url)).toEqual([
      { url: '/media/posts/d-small.webp', width: 600 },
      { url: '/media/posts/d-feed.webp', width: 1200 },
    ]);
  });

  it('lists only what an image stored before the small rendition has', () => {
    const renditions = parseRenditions(
      JSON.stringify({
        feed: { key: 'posts/b-feed.webp', width: 1200, height: 900 },
        full: { key: 'posts/b-full.webp', width: 2000, height: 1500 },
      }),
    );
    expect(postImageSources(renditions, url)).toEqual([
      { url: '/media/posts/b-feed.webp', width: 1200 },
    ]);
  });

  it('lists a width once when a small picture makes both renditions the same size', () => {
    const renditions = parseRenditions(
      JSON.stringify({
        small: { key: 'posts/c-small.webp', width: 400, height: 300 },
        feed: { key: 'posts/c-feed.webp', width: 400, height: 300 },
      }),
    );
    expect(postImageSources(renditions, url)).toEqual([
      { url: '/media/posts/c-small.webp', width: 400 },
    ]);
  });
});

describe('rendition specs', () => {
  it('makes 600 and 800 px post images and a 750×250 cover for phones', () => {
    expect(postRenditions).toContainEqual({
      name: 'small',
      width: 600,
      height: 600,
      fit: 'inside',
    });
    expect(postRenditions).toContainEqual({
      name: 'medium',
      width: 800,
      height: 800,
      fit: 'inside',
    });
    expect(profileRenditions.cover).toContainEqual({
      name: 'coverSmall',
      width: 750,
      height: 250,
      fit: 'cover',
    });
  });
});
