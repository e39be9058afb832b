import { describe, expect, it } from 'vitest';
import { find } from 'linkifyjs';
import { linkedSegments } from './link-finder.js';
import { hashtagOf, mayHoldLink, quickSegments, webHref } from './rich-segments.js';
import { hashtagsIn } from './rich-text.js';

const post = { mentions: true, hashtags: true };

/** A small deterministic generator (mulberry32), so a failure names a text that fails again. */
function random(seed: number): () => number {
  let state = seed;
  return () => {
    state = (state + 0x6d2b79f5) | 0;
    let t = Math.imul(state ^ (state >>> 15), 1 | state);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}
// Pieces of addresses, near misses and lookalikes: full-width and ideographic marks, odd spaces,
// brackets and the words linkifyjs knows (schemes, localhost, top-level domains).
const pieces = [
  ...['a', 'Z', 'ada', 'com', 'org', 'io', 'co', 'uk', 'xn--p1ai', 'www', 'example', '1', '127'],
  ...['http', 'https', 'ftp', 'file', 'mailto', 'tel', 'localhost', 'LocalHost', 'local', 'host'],
  ...['.', '. ', '.\n', ':', ': ', ':\t', '/', '//', '?', '=', '&', '%', '~', '+', '-', '_', ','],
  ...[' ', '\n', '\t', '\r', '\u00a0', '\u2028', '\u3000', '\ufeff', '\u200d', '\ufe0f'],
  ...'＠ ＃ ・ 。 ． ： ／ （ ） 「 」 < > ( ) [ ]'.split(' '),
  ...['é', 'Ω', '中文', 'ру', '😀', '❤️', '"', "'", '!', '*', '$'],
];

describe('linkedSegments: web links (bios and posts)', () => {
  it('keeps plain text, line breaks included, as one text run', () => {
    expect(linkedSegments('Hello\nworld')).toEqual([{ kind: 'text', text: 'Hello\nworld' }]);
  });

  it('turns web addresses into links and keeps the text around them', () => {
    expect(linkedSegments('Blog: https://ada.example/posts?x=1, and more\nhere')).toEqual([
      { kind: 'text', text: 'Blog: ' },
      {
        kind: 'link',
        text: 'https://ada.example/posts?x=1',
        href: 'https://ada.example/posts?x=1',
      },
      { kind: 'text', text: ', and more\nhere' },
    ]);
  });

  it('gives a scheme-less address https', () => {
    expect(linkedSegments('see example.org')).toEqual([
      { kind: 'text', text: 'see ' },
      { kind: 'link', text: 'example.org', href: 'https://example.org/' },
    ]);
  });

  it('never links a javascript: or data: address', () => {
    for (const text of ['javascript:alert(1) x', 'data:text/html,<script>alert(1)</script>']) {
      const segments = linkedSegments(text, post);
      expect(segments.every((segment) => segment.kind === 'text')).toBe(true);
      expect(segments.map((segment) => segment.text).join('')).toBe(text);
    }
  });

  it('leaves email addresses as text', () => {
    expect(linkedSegments('mail ada@example.org', post)).toEqual([
      { kind: 'text', text: 'mail ada@example.org' },
    ]);
  });

  it('returns nothing for an empty text', () => {
    expect(linkedSegments('')).toEqual([]);
  });

  it('keeps mentions and hashtags as text unless asked for', () => {
    expect(linkedSegments('hi @ada #news')).toEqual([{ kind: 'text', text: 'hi @ada #news' }]);
  });
});

describe('linkedSegments: mentions and hashtags (posts)', () => {
  it('links a mention to the profile, lowercased', () => {
    expect(linkedSegments('Thanks @Ada_L!', post)).toEqual([
      { kind: 'text', text: 'Thanks ' },
      { kind: 'mention', text: '@Ada_L', username: 'ada_l', href: '/ada_l' },
      { kind: 'text', text: '!' },
    ]);
  });

  it('leaves what cannot be a username as text', () => {
    for (const text of ['@ab', '@feed', `@${'a'.repeat(31)}`, '@ada-lovelace', '@ada/posts']) {
      expect(linkedSegments(text, post)).toEqual([{ kind: 'text', text }]);
    }
  });

  it('links a hashtag to the filtered feed, lowercased and encoded', () => {
    expect(linkedSegments('Love #Hearth and #café_2', post)).toEqual([
      { kind: 'text', text: 'Love ' },
      { kind: 'hashtag', text: '#Hearth', tag: 'hearth', href: '/tags/hearth' },
      { kind: 'text', text: ' and ' },
      { kind: 'hashtag', text: '#café_2', tag: 'café_2', href: '/tags/caf%C3%A9_2' },
    ]);
  });

  it('mixes links, mentions and hashtags across lines', () => {
    const segments = linkedSegments('@ada see\nhttps://x.example #a', post);
    expect(segments.map((segment) => segment.kind)).toEqual([
      'mention',
      'text',
      'link',
      'text',
      'hashtag',
    ]);
    expect(segments.map((segment) => segment.text).join('')).toBe('@ada see\nhttps://x.example #a');
  });

  it('never turns markup into anything but text', () => {
    const text = '<img src=x onerror=alert(1)> <a href="javascript:alert(1)">@ada</a>';
    const segments = linkedSegments(text, post);
    expect(segments.map((segment) => segment.text).join('')).toBe(text);
    for (const segment of segments) {
      if (segment.kind === 'link') expect(segment.href).toMatch(/^https?:\/\//);
      if (segment.kind === 'mention') expect(segment.href).toBe('/ada');
    }
  });

  it('keeps a URL fragment inside the link rather than making it a hashtag', () => {
    expect(linkedSegments('https://x.example/page#part', post)).toEqual([
      {
        kind: 'link',
        text: 'https://x.example/page#part',
        href: 'https://x.example/page#part',
      },
    ]);
  });
});

describe('linkedSegments: mentions limited to known accounts (bios)', () => {
  const bio = (known: readonly string[]) => ({ mentions: known, hashtags: true });

  it('links only the listed names, whatever their case in the text', () => {
    expect(linkedSegments('Hi @Grace and @nobody #Navy', bio(['grace']))).toEqual([
      { kind: 'text', text: 'Hi ' },
      { kind: 'mention', text: '@Grace', username: 'grace', href: '/grace' },
      { kind: 'text', text: ' and @nobody ' },
      { kind: 'hashtag', text: '#Navy', tag: 'navy', href: '/tags/navy' },
    ]);
  });

  it('keeps every mention as text when the list is empty', () => {
    expect(linkedSegments('@grace @ada', bio([]))).toEqual([{ kind: 'text', text: '@grace @ada' }]);
  });

  it('never links a listed route word', () => {
    expect(linkedSegments('@feed', bio(['feed']))).toEqual([{ kind: 'text', text: '@feed' }]);
  });
});

describe('hashtagsIn', () => {
  it('lists distinct tags, lowercased', async () => {
    expect(await hashtagsIn('#News and #news, #Other')).toEqual(['news', 'other']);
  });

  it('reads a text with an address through the link finder', async () => {
    const text = 'See example.org/x#frag, #Café and #news.';
    expect(quickSegments(text, { hashtags: true })).toBeNull();
    expect(await hashtagsIn(text)).toEqual(['café', 'news']);
  });
});

describe('webHref', () => {
  it('accepts only http and https', () => {
    expect(webHref('https://ada.example')).toBe('https://ada.example/');
    expect(webHref('ftp://ada.example')).toBeNull();
    expect(webHref('not a url')).toBeNull();
  });
});

describe('hashtagOf', () => {
  it('reads a tag as the server stores it', () => {
    expect(hashtagOf('Hearth')).toBe('hearth');
    expect(hashtagOf(' #Café_2 ')).toBe('café_2');
  });

  it('is null for what no hashtag can be', () => {
    expect(hashtagOf('')).toBeNull();
    expect(hashtagOf('#')).toBeNull();
    expect(hashtagOf('two words')).toBeNull();
    expect(hashtagOf('a-b')).toBeNull();
    expect(hashtagOf('x'.repeat(101))).toBeNull();
  });
});

describe('mayHoldLink: the test that spares plain text a scan', () => {
  it('is false only for texts in which linkifyjs finds nothing', () => {
    const next = random(13);
    let plain = 0;
    for (let run = 0; run < 20_000; run += 1) {
      const count = 1 + Math.floor(next() * 12);
      let text = '';
      for (let i = 0; i < count; i += 1) text += pieces[Math.floor(next() * pieces.length)] ?? '';
      if (mayHoldLink(text)) continue;
      plain += 1;
      expect(find(text, { defaultProtocol: 'https' }), JSON.stringify(text)).toEqual([]);
      expect(linkedSegments(text, post)).toEqual(text === '' ? [] : [{ kind: 'text', text }]);
    }
    // The generator must reach the plain side often for the check to mean anything.
    expect(plain).toBeGreaterThan(3_000);
  });

  it('is true for every kind of thing linkifyjs finds', () => {
    for (const text of [
      'see example.org',
      'https://ada.example',
      'mailto:ada',
      'on localhost',
      'ada@example.org',
      'hi @ada',
      'so #news',
      'www.example.org',
    ]) {
      expect(find(text).length, text).toBeGreaterThan(0);
      expect(mayHoldLink(text), text).toBe(true);
    }
  });

  it('is false for sentences that end in a dot or a colon and a space', () => {
    expect(mayHoldLink('Rain again. Good day for soup: and a long book.')).toBe(false);
  });
});

describe('quickSegments: plain hashtags and mentions without linkifyjs (ADR 0054)', () => {
  // Words, the marks a hashtag or a mention is made of and ends with, and a few of the pieces above that
  // the quick reading must leave alone (addresses, lookalikes, odd spaces).
  const tokenPieces = [
    ...[
      'a',
      'Z',
      'ada',
      'com',
      'org',
      'io',
      'news',
      '42',
      'a1',
      'B2b',
      'x_y',
      '_',
      'é',
      'Ω',
      '中文',
      '😀',
    ],
    ...[' ', ' ', ' ', '\n', '\t', '\r', '#', '@', '#', '@', ' #', ' @', '#news', '@ada', '@Ada_L'],
    ...['-', '/', '!', '?', ';', ')', '(', "'s", '"', ',', '. ', '.', ':', ': ', 'localhost', '&'],
    ...['\u00a0', '\u3000', '\u200d', '＃', '＠', '．', 'https', '//', 'www', '=', '*', '~', '+'],
  ];
  const optionSets = [post, { mentions: ['ada', 'grace'], hashtags: true }, {}];

  it('splits exactly as linkifyjs does, for every text it takes', () => {
    const next = random(29);
    const taken = { plain: 0, tokens: 0 };
    for (let run = 0; run < 40_000; run += 1) {
      // Pieces mostly apart, as words are, and now and then run together.
      const count = 1 + Math.floor(next() * 7);
      let text = '';
      for (let i = 0; i < count; i += 1) {
        if (i > 0 && next() < 0.6) text += ' ';
        text += tokenPieces[Math.floor(next() * tokenPieces.length)] ?? '';
      }
      for (const options of optionSets) {
        const quick = quickSegments(text, options);
        if (quick === null) continue;
        if (mayHoldLink(text)) taken.tokens += 1;
        else taken.plain += 1;
        expect(quick, JSON.stringify(text)).toEqual(linkedSegments(text, options));
      }
    }
    // The generator must often reach texts with tokens the quick reading takes, for the check to mean anything.
    expect(taken.tokens).toBeGreaterThan(10_000);
  });

  it('takes the hashtags and mentions of everyday posts', () => {
    expect(quickSegments('The tomatoes finally turned. #balconygarden', post)).toEqual([
      { kind: 'text', text: 'The tomatoes finally turned. ' },
      {
        kind: 'hashtag',
        text: '#balconygarden',
        tag: 'balconygarden',
        href: '/tags/balconygarden',
      },
    ]);
    expect(quickSegments("@Ada_L's glaze, (thanks @grace!) #1 #2024_x", post)).toEqual([
      { kind: 'mention', text: '@Ada_L', username: 'ada_l', href: '/ada_l' },
      { kind: 'text', text: "'s glaze, (thanks " },
      { kind: 'mention', text: '@grace', username: 'grace', href: '/grace' },
      { kind: 'text', text: '!) #1 ' },
      { kind: 'hashtag', text: '#2024_x', tag: '2024_x', href: '/tags/2024_x' },
    ]);
  });

  it('leaves addresses, and tokens it cannot be sure of, to linkifyjs', () => {
    for (const text of [
      'see example.org #news',
      'mail ada@example.org',
      'x#news',
      '#café',
      '@ada-lovelace',
      '@ada/team',
      '#news#more',
      'hi @',
    ]) {
      expect(quickSegments(text, post), text).toBeNull();
    }
  });
});
