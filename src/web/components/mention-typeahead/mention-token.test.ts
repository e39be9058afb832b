import { describe, expect, it } from 'vitest';
import { applyMention, findMentionToken } from './mention-token.js';

describe('findMentionToken', () => {
  it('finds the @name being typed at the caret', () => {
    expect(findMentionToken('@a', 2)).toEqual({ start: 0, end: 2, query: 'a' });
    expect(findMentionToken('Hi @ada', 7)).toEqual({ start: 3, end: 7, query: 'ada' });
    expect(findMentionToken('Hi @Ada_L', 9)).toEqual({ start: 3, end: 9, query: 'Ada_L' });
    expect(findMentionToken('line\n@bo', 8)).toEqual({ start: 5, end: 8, query: 'bo' });
    expect(findMentionToken('(@bo', 4)).toEqual({ start: 1, end: 4, query: 'bo' });
  });

  it('needs at least one character after the @', () => {
    expect(findMentionToken('Hi @', 4)).toBeNull();
    expect(findMentionToken('Hi @ ada', 5)).toBeNull();
  });

  it('takes the whole name when the caret is inside it', () => {
    expect(findMentionToken('Hi @adalovelace!', 6)).toEqual({ start: 3, end: 15, query: 'ad' });
  });

  it('ignores an @ inside a word or an address, and text with no @', () => {
    expect(findMentionToken('ana@example', 11)).toBeNull();
    expect(findMentionToken('hello', 5)).toBeNull();
    expect(findMentionToken('@@ada', 5)).toBeNull();
    expect(findMentionToken('@ada done', 9)).toBeNull();
  });

  it('stops once the name is longer than any username', () => {
    expect(findMentionToken(`@${'a'.repeat(30)}`, 31)?.query).toHaveLength(30);
    expect(findMentionToken(`@${'a'.repeat(31)}`, 32)).toBeNull();
    expect(findMentionToken(`@${'a'.repeat(40)}`, 5)).toBeNull();
  });

  it('answers null for a caret outside the text', () => {
    expect(findMentionToken('@ada', 9)).toBeNull();
    expect(findMentionToken('@ada', -1)).toBeNull();
  });
});

describe('applyMention', () => {
  it('replaces the partial name with @username and a space, caret after it', () => {
    const text = 'Hi @ad';
    const token = findMentionToken(text, 6);
    expect(token).not.toBeNull();
    if (!token) return;
    expect(applyMention(text, token, 'ada')).toEqual({ text: 'Hi @ada ', caret: 8 });
  });

  it('keeps the text after the name, using a space or punctuation already there', () => {
    const text = 'Hi @ad and you';
    const token = findMentionToken(text, 6);
    if (!token) throw new Error('no token');
    expect(applyMention(text, token, 'ada')).toEqual({ text: 'Hi @ada and you', caret: 8 });
    const glued = 'Hi @ad, you';
    const second = findMentionToken(glued, 6);
    if (!second) throw new Error('no token');
    expect(applyMention(glued, second, 'ada')).toEqual({ text: 'Hi @ada, you', caret: 7 });
  });

  it('replaces the whole name when the caret was inside it', () => {
    const text = '@adalove';
    const token = findMentionToken(text, 3);
    if (!token) throw new Error('no token');
    expect(applyMention(text, token, 'ada_l')).toEqual({ text: '@ada_l ', caret: 7 });
  });
});
