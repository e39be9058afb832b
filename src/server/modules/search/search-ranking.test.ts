import { describe, expect, it } from 'vitest';
import { foldForSearch, rankMatches, searchTokens, type RankTerm } from './search-ranking.js';

const now = '2026-06-30T12:00:00.000Z';
const daysAgo = (days: number) => new Date(Date.parse(now) - days * 86_400_000).toISOString();
const word = (text: string, prefix = false): RankTerm => ({ tokens: searchTokens(text), prefix });

describe('searchTokens', () => {
  it('splits on anything but letters and digits, lower-cased and without accents', () => {
    expect(searchTokens("Café-au-lait, NAÏVE don't #Garden 42!")).toEqual([
      'cafe',
      'au',
      'lait',
      'naive',
      'don',
      't',
      'garden',
      '42',
    ]);
    expect(searchTokens('Привет, мир 世界')).toEqual(['привет', 'мир', '世界']);
    expect(searchTokens('  …  ')).toEqual([]);
    expect(foldForSearch('Ÿ É')).toBe('y e');
  });
});

describe('rankMatches', () => {
  it('puts a post that is more of the word above one that mentions it once', () => {
    const ranked = rankMatches(
      [
        {
          id: 1,
          body: 'A long walk past the market and the hill, then bread once.',
          createdAt: now,
        },
        { id: 2, body: 'bread bread bread', createdAt: now },
        { id: 3, body: 'Fresh bread today', createdAt: now },
      ],
      [word('bread')],
      now,
    );
    expect(ranked).toEqual([2, 3, 1]);
  });

  it('lets age outweigh a small lead, and gives ties to the newer post', () => {
    const ranked = rankMatches(
      [
        { id: 10, body: 'bread and jam', createdAt: daysAgo(0) },
        { id: 11, body: 'bread and jam', createdAt: daysAgo(0) },
        { id: 12, body: 'bread bread', createdAt: daysAgo(400) },
        { id: 13, body: 'bread and jam', createdAt: daysAgo(90) },
      ],
      [word('bread')],
      now,
    );
    expect(ranked).toEqual([11, 10, 13, 12]);
  });

  it('counts phrases in order, unfinished last words as prefixes, and every term', () => {
    const terms = [word('quiet river'), word('gard', true)];
    const ranked = rankMatches(
      [
        { id: 1, body: 'river quiet, gardens', createdAt: now },
        { id: 2, body: 'quiet river quiet river garden gardener', createdAt: now },
      ],
      terms,
      now,
    );
    expect(ranked).toEqual([2, 1]);
  });

  it('still ranks a match whose words the split does not see as the index did', () => {
    expect(
      rankMatches(
        [
          { id: 1, body: 'nothing of it here', createdAt: daysAgo(1) },
          { id: 2, body: 'nor here', createdAt: now },
        ],
        [word('absent')],
        now,
      ),
    ).toEqual([2, 1]);
    expect(rankMatches([], [word('x')], now)).toEqual([]);
  });
});
