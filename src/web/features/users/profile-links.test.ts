import { describe, expect, it } from 'vitest';
import { bioSegments, websiteLink } from './profile-links.js';

describe('bioSegments', () => {
  it('keeps plain text, line breaks included, as one text run', () => {
    expect(bioSegments('Hello\nworld')).toEqual([{ kind: 'text', text: 'Hello\nworld' }]);
  });

  it('turns web addresses into links and keeps the text around them', () => {
    expect(bioSegments('Blog: https://ada.example/posts?x=1, and more\nhere')).toEqual([
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
    expect(bioSegments('see example.org')).toEqual([
      { kind: 'text', text: 'see ' },
      { kind: 'link', text: 'example.org', href: 'https://example.org/' },
    ]);
  });

  it('never links a javascript: address', () => {
    const segments = bioSegments('javascript:alert(1) x');
    expect(segments.every((segment) => segment.kind === 'text')).toBe(true);
    expect(segments.map((segment) => segment.text).join('')).toBe('javascript:alert(1) x');
  });

  it('leaves email addresses as text', () => {
    expect(bioSegments('mail ada@example.org')).toEqual([
      { kind: 'text', text: 'mail ada@example.org' },
    ]);
  });

  it('returns nothing for an empty bio', () => {
    expect(bioSegments('')).toEqual([]);
  });
});

describe('websiteLink', () => {
  it('labels the link with the host name', () => {
    expect(websiteLink('https://www.ada.example/about/')).toEqual({
      href: 'https://www.ada.example/about/',
      label: 'www.ada.example',
    });
  });

  it('keeps a port in the label', () => {
    expect(websiteLink('http://ada.example:8080')?.label).toBe('ada.example:8080');
  });

  it('is null for no website or one that is not http(s)', () => {
    expect(websiteLink(null)).toBeNull();
    expect(websiteLink('')).toBeNull();
    expect(websiteLink('javascript:alert(1)')).toBeNull();
    expect(websiteLink('not a url')).toBeNull();
  });
});
