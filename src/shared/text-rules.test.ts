import { describe, expect, it } from 'vitest';
import { limits } from './limits.js';
import {
  altTextRule,
  commentBodyRule,
  emptyPostMessage,
  postBodyRule,
  postError,
  textRuleError,
} from './text-rules.js';

describe('textRuleError', () => {
  const rule = { max: 3, empty: 'Empty.', tooLong: 'Too long.' };

  it('counts grapheme clusters after trimming and normalising line endings', () => {
    expect(textRuleError('abc', rule)).toBeNull();
    expect(textRuleError(' 🔥🔥🔥\r\n', rule)).toBeNull();
    expect(textRuleError('👩‍👩‍👧‍👦🇫🇷e\u0301', rule)).toBeNull();
    expect(textRuleError('a\r\nb', rule)).toBeNull();
    expect(textRuleError('abcd', rule)).toBe('Too long.');
    expect(textRuleError('👍🏽👍🏽👍🏽👍🏽', rule)).toBe('Too long.');
  });

  it('judges a very long text without counting all of it', () => {
    expect(textRuleError('👩‍👩‍👧‍👦'.repeat(50_000), rule)).toBe('Too long.');
  });

  it('refuses an empty text only where the rule says so', () => {
    expect(textRuleError('  \n', rule)).toBe('Empty.');
    expect(textRuleError('  \n', { max: 3, tooLong: 'Too long.' })).toBeNull();
  });
});

describe('the comment rule', () => {
  it('refuses an empty comment, spaces and line breaks included', () => {
    expect(textRuleError('', commentBodyRule)).toBe('Write a comment first.');
    expect(textRuleError(' \r\n\t ', commentBodyRule)).toBe('Write a comment first.');
  });

  it('allows the limit exactly, emoji counted as one, and refuses one more', () => {
    expect(textRuleError('y'.repeat(limits.comment.max), commentBodyRule)).toBeNull();
    expect(textRuleError(`  ${'y'.repeat(limits.comment.max)}\n`, commentBodyRule)).toBeNull();
    expect(textRuleError('😀'.repeat(limits.comment.max), commentBodyRule)).toBeNull();
    expect(textRuleError('y'.repeat(limits.comment.max + 1), commentBodyRule)).toBe(
      'Keep comments to 2,000 characters.',
    );
  });
});

describe('postError', () => {
  it('needs text or an image', () => {
    expect(postError('  \n', 0)).toBe(emptyPostMessage);
    expect(postError('', 1)).toBeNull();
    expect(postError('Hello', 0)).toBeNull();
  });

  it('holds the text to the post limit, with or without images', () => {
    expect(postError('x'.repeat(limits.post.max), 0)).toBeNull();
    expect(postError('x'.repeat(limits.post.max + 1), 2)).toBe(postBodyRule.tooLong);
    expect(postBodyRule.tooLong).toBe('Keep posts to 5,000 characters.');
  });

  it('allows 5,000 family emoji, as many as a person sees, and refuses one more', () => {
    const family = '👩‍👩‍👧‍👦';
    expect(postError(family.repeat(limits.post.max), 0)).toBeNull();
    expect(postError(family.repeat(limits.post.max + 1), 0)).toBe(postBodyRule.tooLong);
  });
});

describe('the alt-text rule', () => {
  it('allows an empty description and refuses a long one', () => {
    expect(textRuleError('', altTextRule)).toBeNull();
    expect(textRuleError('a'.repeat(limits.altText.max + 1), altTextRule)).toBe(
      'Keep the description to 1500 characters.',
    );
  });
});
