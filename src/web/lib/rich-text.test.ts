import { describe, expect, it } from 'vitest';
import { find } from 'linkifyjs';
import { hashtagOf, hashtagsOf, mayHoldLink, richTextSegments, webHref } from './rich-text.js';

const post = { mentions: true, hashtags: true };

describe('richTextSegments: web links (bios and posts)', () => {
  it('keeps plain text, line breaks included, as one text run', () => {
    expect(richTextSegments('Hello\nworld')).toEqual([{ kind: 'text', text: 'Hello\nworld' }]);
  });

  it('turns web addresses into links and keeps the text around them', () => {
    expect(richTextSegments('Blog: https://ada.example/posts?x=1, and more\nhere')).toEqual([
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
    expect(richTextSegments('see example.org')).toEqual([
      { kind: 'text', text: 'see ' },
      { kind: 'link', text: 'example.org', href: 'https://example.org/' },
    ]);
  });

  it('never links a javascript: or data: address', () => {
    for (const text of ['javascript:alert(1) x', 'data:text/html,<script>alert(1)</script>']) {
      const segments = richTextSegments(text, post);
      expect(segments.every((segment) => segment.kind === 'text')).toBe(true);
      expect(segments.map((segment) => segment.text).join('')).toBe(text);
    }
  });

  it('leaves email addresses as text', () => {
    expect(richTextSegments('mail ada@example.org', post)).toEqual([
      { kind: 'text', text: 'mail ada@example.org' },
    ]);
  });

  it('returns nothing for an empty text', () => {
    expect(richTextSegments('')).toEqual([]);
  });

  it('keeps mentions and hashtags as text unless asked for', () => {
    expect(richTextSegments('hi @ada #news')).toEqual([{ kind: 'text', text: 'hi @ada #news' }]);
  });
});

describe('richTextSegments: mentions and hashtags (posts)', () => {
  it('links a mention to the profile, lowercased', () => {
    expect(richTextSegments('Thanks @Ada_L!', post)).toEqual([
      { kind: 'text', text: 'Thanks ' },
      { kind: 'mention', text: '@Ada_L', username: 'ada_l', href: '/ada_l' },
      { kind: 'text', text: '!' },
    ]);
  });

  it('leaves what cannot be a username as text', () => {
    for (const text of ['@ab', '@feed', `@${'a'.repeat(31)}`, '@ada-lovelace', '@ada/posts']) {
      expect(richTextSegments(text, post)).toEqual([{ kind: 'text', text }]);
    }
  });

  it('links a hashtag to the filtered feed, lowercased and encoded', () => {
    expect(richTextSegments('Love #Hearth and #café_2', post)).toEqual([
      { kind: 'text', text: 'Love ' },
      { kind: 'hashtag', text: '#Hearth', tag: 'hearth', href: '/tags/hearth' },
      { kind: 'text', text: ' and ' },
      { kind: 'hashtag', text: '#café_2', tag: 'café_2', href: '/tags/caf%C3%A9_2' },
    ]);
  });

  it('mixes links, mentions and hashtags across lines', () => {
    const segments = richTextSegments('@ada see\nhttps://x.example #a', post);
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
    const segments = richTextSegments(text, post);
    expect(segments.map((segment) => segment.text).join('')).toBe(text);
    for (const segment of segments) {
      if (segment.kind === 'link') expect(segment.href).toMatch(/^https?:\/\//);
      if (segment.kind === 'mention') expect(segment.href).toBe('/ada');
    }
  });

  it('keeps a URL fragment inside the link rather than making it a hashtag', () => {
    expect(richTextSegments('https://x.example/page#part', post)).toEqual([
      {
        kind: 'link',
        text: 'https://x.example/page#part',
        href: 'https://x.example/page#part',
      },
    ]);
  });
});

describe('richTextSegments: mentions limited to known accounts (bios)', () => {
  const bio = (known: readonly string[]) => ({ mentions: known, hashtags: true });

  it('links only the listed names, whatever their case in the text', () => {
    expect(richTextSegments('Hi @Grace and @nobody #Navy', bio(['grace']))).toEqual([
      { kind: 'text', text: 'Hi ' },
      { kind: 'mention', text: '@Grace', username: 'grace', href: '/grace' },
      { kind: 'text', text: ' and @nobody ' },
      { kind: 'hashtag', text: '#Navy', tag: 'navy', href: '/tags/navy' },
    ]);
  });

  it('keeps every mention as text when the list is empty', () => {
    expect(richTextSegments('@grace @ada', bio([]))).toEqual([
      { kind: 'text', text: '@grace @ada' },
    ]);
  });

  it('never links a listed route word', () => {
    expect(richTextSegments('@feed', bio(['feed']))).toEqual([{ kind: 'text', text: '@feed' }]);
  });
});

describe('hashtagsOf', () => {
  it('lists distinct tags, lowercased', () => {
    expect(hashtagsOf('#News and #news, #Other')).toEqual(['news', 'other']);
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
      expect(richTextSegments(text, post)).toEqual(text === '' ? [] : [{ kind: 'text', text }]);
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
