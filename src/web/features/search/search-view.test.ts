import { describe, expect, it } from 'vitest';
import { limits } from '@shared/limits.js';
import { searchInputOf, searchSearch, searchViewOf } from './search-view.js';

const view = (search: string) => searchViewOf(new URLSearchParams(search));

describe('searchViewOf', () => {
  it('reads the text and the tab, People by default', () => {
    expect(view('')).toEqual({ text: '', tab: 'people' });
    expect(view('?q=ada%20l&tab=posts')).toEqual({ text: 'ada l', tab: 'posts' });
    expect(view('?q=x&tab=nonsense')).toEqual({ text: 'x', tab: 'people' });
  });
});

describe('searchSearch', () => {
  it('writes only what is set, and reads back the same', () => {
    expect(searchSearch({ text: '', tab: 'people' })).toBe('');
    expect(searchSearch({ text: '', tab: 'posts' })).toBe('?tab=posts');
    const written = searchSearch({ text: 'from:ada "tea time" #hearth', tab: 'posts' });
    expect(view(written)).toEqual({ text: 'from:ada "tea time" #hearth', tab: 'posts' });
  });
});

describe('searchInputOf', () => {
  it('treats blank text as nothing to search', () => {
    expect(searchInputOf('')).toEqual({ kind: 'empty' });
    expect(searchInputOf('   ')).toEqual({ kind: 'empty' });
  });

  it('searches for the trimmed text', () => {
    expect(searchInputOf('  ada ')).toEqual({ kind: 'query', q: 'ada' });
  });

  it('refuses an over-long search with the server’s words', () => {
    expect(searchInputOf('a'.repeat(limits.search.maxQuery + 1))).toEqual({
      kind: 'invalid',
      message: `Keep searches to ${String(limits.search.maxQuery)} characters.`,
    });
    expect(searchInputOf('a'.repeat(limits.search.maxQuery)).kind).toBe('query');
  });
});
