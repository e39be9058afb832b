import { describe, expect, it } from 'vitest';
import { postExcerpt, postTitle } from './post-excerpt.js';

describe('postExcerpt', () => {
  it('keeps a short text whole, on one line', () => {
    expect(postExcerpt('Hello\n\nworld  again')).toBe('Hello world again');
  });

  it('cuts a long text at a word and marks the cut', () => {
    expect(postExcerpt('The quick brown fox jumps over the lazy dog', 20)).toBe(
      'The quick brown fox…',
    );
  });

  it('cuts inside a very long word when there is no better place', () => {
    expect(postExcerpt('a'.repeat(30), 10)).toBe(`${'a'.repeat(10)}…`);
  });

  it('counts an emoji as one character and never splits it', () => {
    expect(postExcerpt('🔥'.repeat(12), 10)).toBe(`${'🔥'.repeat(10)}…`);
  });

  it('drops punctuation left dangling at the cut', () => {
    expect(postExcerpt('Well, here we go, again and again', 17)).toBe('Well, here we go…');
  });
});

describe('postTitle', () => {
  it('names the author and quotes the excerpt', () => {
    expect(postTitle('Ada Lovelace', 'Hello world')).toBe('Ada Lovelace: “Hello world”');
  });
});
