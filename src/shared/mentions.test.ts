import { describe, expect, it } from 'vitest';
import { mentionedUsername, mentionedUsernames } from './mentions.js';

describe('mentionedUsername', () => {
  it('names the lowercase account of a mention token', () => {
    expect(mentionedUsername('@Ada_L')).toBe('ada_l');
  });

  it('is null for what no account can be called', () => {
    for (const token of ['@ab', '@feed', '@Settings', `@${'a'.repeat(31)}`, '@ada-l', '@']) {
      expect(mentionedUsername(token)).toBeNull();
    }
  });
});

describe('mentionedUsernames', () => {
  it('lists each mentioned name once, lowercased, in order of first mention', () => {
    expect(mentionedUsernames('Hi @Grace and @ada_l.\n@grace again, #tag')).toEqual([
      'grace',
      'ada_l',
    ]);
  });

  it('skips email addresses, route words, URL parts and malformed names', () => {
    expect(
      mentionedUsernames('ada@example.org @feed @ab https://x.example/@someone @ok_name'),
    ).toEqual(['ok_name']);
  });

  it('finds nothing in a text without mentions', () => {
    expect(mentionedUsernames('Just #words here.')).toEqual([]);
  });
});
