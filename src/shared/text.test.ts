import fc from 'fast-check';
import { describe, expect, it, vi } from 'vitest';
import { charCount, normaliseMultiline } from './text.js';

describe('charCount counts what a person sees (grapheme clusters)', () => {
  it('counts plain text by its characters', () => {
    expect(charCount('')).toBe(0);
    expect(charCount('Hello, world')).toBe(12);
    expect(charCount('tab\there')).toBe(8);
  });

  it('counts a family emoji joined with zero-width joiners as one', () => {
    const family = '👩‍👩‍👧‍👦';
    expect(family.length).toBe(11);
    expect(charCount(family)).toBe(1);
    expect(charCount(`${family} hi`)).toBe(4);
  });

  it('counts each flag (a pair of regional indicators) as one', () => {
    expect(charCount('🇫🇷')).toBe(1);
    expect(charCount('🇫🇷🇩🇪🇯🇵')).toBe(3);
    // A subdivision flag is a tag sequence: still one.
    expect(charCount('🏴󠁧󠁢󠁳󠁣󠁴󠁿')).toBe(1);
  });

  it('counts an emoji with a skin tone as one', () => {
    expect(charCount('👍🏽')).toBe(1);
    expect(charCount('🧑🏿‍🚀👋🏻')).toBe(2);
  });

  it('counts a letter with combining marks as one, composed or not', () => {
    expect(charCount('e\u0301')).toBe(1);
    expect(charCount('\u00e9')).toBe(1);
    expect(charCount('Z\u0351\u036b\u0343\u036a\u0302\u036b')).toBe(1);
    expect(charCount('cafe\u0301')).toBe(4);
    // Hangul written as jamo is one syllable.
    expect(charCount('\u1100\u1161\u11a8')).toBe(1);
  });

  it('counts CR LF as one character and lone CR or LF as one each', () => {
    expect(charCount('a\r\nb')).toBe(3);
    expect(charCount('a\nb')).toBe(3);
    expect(charCount('a\rb')).toBe(3);
    expect(charCount('é\r\n')).toBe(2);
  });

  it('agrees with segmenting the whole text, for any mix of tricky pieces', () => {
    const segmenter = new Intl.Segmenter(undefined, { granularity: 'grapheme' });
    const whole = (text: string) => [...segmenter.segment(text)].length;
    const pieces = [
      'a',
      'e',
      '#',
      ' ',
      '\r',
      '\n',
      '\t',
      '\u0301',
      '\u0308',
      '\u200d',
      '\ufe0f',
      '\u20e3',
      '👩',
      '🏽',
      '🇫',
      '🇷',
      'é',
      '中',
      '\u0600',
      '\u1100',
      '\u1161',
      '\ud83d',
    ];
    fc.assert(
      fc.property(fc.array(fc.constantFrom(...pieces), { maxLength: 40 }), (parts) => {
        const text = parts.join('');
        expect(charCount(text)).toBe(whole(text));
        expect(charCount(text, 3)).toBe(Math.min(whole(text), 4));
      }),
      { numRuns: 2_000 },
    );
  });

  it('stops counting once past atMost, however long the text', () => {
    expect(charCount('x'.repeat(10_000), 5)).toBe(6);
    expect(charCount('👍🏽'.repeat(10_000), 5)).toBe(6);
    expect(charCount('abc', 5)).toBe(3);
  });

  it('counts a mostly-English 5,000-character post much faster than segmenting all of it', () => {
    const post = 'A day at the café 🔥 with friends, naïve as ever 👩‍👩‍👧‍👦. '
      .repeat(100)
      .slice(0, 5_000);
    const segmenter = new Intl.Segmenter(undefined, { granularity: 'grapheme' });
    const whole = (text: string) => [...segmenter.segment(text)].length;
    expect(charCount(post)).toBe(whole(post));
    // The best of several rounds, so a busy machine slows both sides alike.
    const best = (count: (text: string) => number) => {
      let fastest = Infinity;
      for (let round = 0; round < 7; round += 1) {
        const started = performance.now();
        count(post);
        fastest = Math.min(fastest, performance.now() - started);
      }
      return fastest;
    };
    expect(best(charCount)).toBeLessThan(best(whole) / 2);
  });
});

describe('normaliseMultiline', () => {
  it('writes line endings as \\n and trims the whole text', () => {
    expect(normaliseMultiline('  a\r\nb\rc\n ')).toBe('a\nb\nc');
  });
});

describe('the segmenter', () => {
  it('is built on the first text beyond ASCII, and once (a browser loads its locale data for it)', async () => {
    vi.resetModules();
    // Intl's members are read-only in the types, not in the engine.
    const intl = Intl as { Segmenter: typeof Intl.Segmenter };
    const Original = intl.Segmenter;
    let built = 0;
    intl.Segmenter = class extends Original {
      constructor(...args: ConstructorParameters<typeof Original>) {
        super(...args);
        built += 1;
      }
    };
    try {
      const fresh = await import('./text.js');
      expect(fresh.charCount('Hello,\r\nworld #garden https://example.com')).toBe(40);
      expect(fresh.charCount('x'.repeat(50), 10)).toBe(11);
      expect(built).toBe(0);
      expect(fresh.charCount('café 👩‍👩‍👧‍👦')).toBe(6);
      expect(fresh.charCount('🇫🇷🇫🇷')).toBe(2);
      expect(built).toBe(1);
    } finally {
      intl.Segmenter = Original;
    }
  });
});
