import { describe, expect, it } from 'vitest';
import {
  isSearchable,
  parseSearchQuery,
  searchableText,
  phraseWordsMax,
  searchTermsMax,
  type SearchQuery,
} from './search-query.js';

const query = (overrides: Partial<SearchQuery>): SearchQuery => ({
  words: [],
  phrases: [],
  from: null,
  tags: [],
  prefix: false,
  ...overrides,
});

describe('parseSearchQuery', () => {
  it('reads words, the last one as a prefix', () => {
    expect(parseSearchQuery('fresh bread gar')).toEqual(
      query({ words: ['fresh', 'bread', 'gar'], prefix: true }),
    );
  });

  it('reads quoted phrases, which match whole', () => {
    expect(parseSearchQuery('"quiet river" walk')).toEqual(
      query({ words: ['walk'], phrases: ['quiet river'], prefix: true }),
    );
    expect(parseSearchQuery('walk "quiet   river"')).toEqual(
      query({ words: ['walk'], phrases: ['quiet river'], prefix: false }),
    );
  });

  it('closes an unbalanced quote at the end of the text', () => {
    expect(parseSearchQuery('bread "quiet river')).toEqual(
      query({ words: ['bread'], phrases: ['quiet river'] }),
    );
    expect(parseSearchQuery('"')).toEqual(query({}));
    expect(parseSearchQuery('"""')).toEqual(query({}));
  });

  it('reads typographic quotes as quotes', () => {
    expect(parseSearchQuery('“quiet river”').phrases).toEqual(['quiet river']);
  });

  it('reads a one-word phrase as that word, matched whole', () => {
    expect(parseSearchQuery('"garden!"')).toEqual(query({ words: ['garden'] }));
  });

  it('keeps symbols inside a phrase or word for the tokenizer, and trims them at the edges', () => {
    expect(parseSearchQuery('"don\'t stop"').phrases).toEqual(["don't stop"]);
    expect(parseSearchQuery("(don't) example.com!").words).toEqual(["don't", 'example.com']);
  });

  it('reads from:username, with or without @, lower-cased', () => {
    expect(parseSearchQuery('from:Ana_B')).toEqual(query({ from: 'ana_b' }));
    expect(parseSearchQuery('FROM:@ana bread')).toEqual(
      query({ from: 'ana', words: ['bread'], prefix: true }),
    );
    expect(parseSearchQuery('from:ana from:ben').from).toBe('ben');
  });

  it('ignores an empty from: and reads a malformed one as text', () => {
    expect(parseSearchQuery('from:')).toEqual(query({}));
    expect(parseSearchQuery('from:@')).toEqual(query({}));
    expect(parseSearchQuery('from:a-b')).toEqual(query({ words: ['from:a-b'], prefix: true }));
  });

  it('reads #tags as posts store them: lower-cased, without #', () => {
    expect(parseSearchQuery('#Bread #CAFÉ #my_tag, #bread')).toEqual(
      query({ tags: ['bread', 'café', 'my_tag'] }),
    );
    expect(parseSearchQuery('##hearth').tags).toEqual(['hearth']);
  });

  it('reads a lone # or one without a tag as nothing', () => {
    expect(parseSearchQuery('# #! ##')).toEqual(query({}));
  });

  it('reads search-engine operators as plain words', () => {
    expect(parseSearchQuery('NEAR(bread AND river) OR NOT -kettle* ^sun body:x')).toEqual(
      query({
        words: ['NEAR(bread', 'AND', 'river', 'OR', 'NOT', 'kettle', 'sun', 'body:x'],
        prefix: true,
      }),
    );
  });

  it('reads injection attempts as words', () => {
    expect(parseSearchQuery("'; DROP TABLE posts; --")).toEqual(
      query({ words: ['DROP', 'TABLE', 'posts'], prefix: true }),
    );
  });

  it('drops repeated words, whatever their case', () => {
    expect(parseSearchQuery('Bread bread BREAD')).toEqual(query({ words: ['Bread'] }));
  });

  it('does not read a repeated word at the end as the one being typed', () => {
    expect(parseSearchQuery('bread river bread')).toEqual(query({ words: ['bread', 'river'] }));
  });

  it('finds nothing searchable in punctuation, emoji or whitespace', () => {
    for (const text of ['', '   ', '!!! ??? ...', '🎉🎉 👩‍👩‍👧‍👦', '* ( ) ^ : -', '\u0301']) {
      const parsed = parseSearchQuery(text);
      expect(parsed, JSON.stringify(text)).toEqual(query({}));
      expect(isSearchable(parsed)).toBe(false);
    }
  });

  it('keeps letters of any script and emoji-adjacent words', () => {
    expect(parseSearchQuery('日本 café🎉 naïve').words).toEqual(['日本', 'café', 'naïve']);
  });

  it('is searchable with only from: or only a tag', () => {
    expect(isSearchable(parseSearchQuery('from:ana'))).toBe(true);
    expect(isSearchable(parseSearchQuery('#bread'))).toBe(true);
    expect(isSearchable(parseSearchQuery('"a b"'))).toBe(true);
  });

  it(`reads at most ${searchTermsMax} terms`, () => {
    const words = Array.from({ length: 40 }, (_, i) => `w${i}`);
    const parsed = parseSearchQuery(`#t1 from:ana ${words.join(' ')}`);
    expect(parsed.tags).toEqual(['t1']);
    expect(parsed.from).toBe('ana');
    expect(parsed.words).toEqual(words.slice(0, searchTermsMax - 2));
    // The word being typed was not read, so no word is a prefix.
    expect(parsed.prefix).toBe(false);
  });

  it(`keeps the first ${phraseWordsMax} words of a long phrase`, () => {
    const words = Array.from({ length: 30 }, (_, i) => `w${i}`);
    expect(parseSearchQuery(`"${words.join(' ')}"`).phrases).toEqual([
      words.slice(0, phraseWordsMax).join(' '),
    ]);
  });

  it('reads control characters as spaces, in words and phrases', () => {
    expect(parseSearchQuery('nul\u0000byte "a\u0007b c"')).toEqual(
      query({ words: ['nul', 'byte'], phrases: ['a b c'] }),
    );
    expect(searchableText('ana\u0000 b\u001f')).toBe('ana  b ');
  });

  it('parses any string without throwing', () => {
    const samples = [
      '"\\"',
      '\u0000\u0001"',
      'a'.repeat(10_000),
      '""""a',
      '#'.repeat(300),
      '\uD800',
    ];
    for (const text of samples) expect(() => parseSearchQuery(text)).not.toThrow();
  });
});
