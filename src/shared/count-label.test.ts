import { describe, expect, it } from 'vitest';
import { countLabel, countOf } from './count-label.js';

describe('countLabel', () => {
  it('groups thousands as English does', () => {
    for (const value of [0, 7, 999, 1_000, 12_345, 999_999, 1_234_567, 10_000_000]) {
      expect(countLabel(value)).toBe(new Intl.NumberFormat('en').format(value));
    }
  });

  it('drops a fraction, keeps a sign, and says nothing for what is not a number', () => {
    expect(countLabel(1_234.9)).toBe('1,234');
    expect(countLabel(-4_321)).toBe('-4,321');
    expect(countLabel(Number.NaN)).toBe('');
    expect(countLabel(Number.POSITIVE_INFINITY)).toBe('');
  });

  it('names what it counts, singular for one alone', () => {
    expect(countOf(1, 'reply', 'replies')).toBe('1 reply');
    expect(countOf(0, 'reply', 'replies')).toBe('0 replies');
    expect(countOf(2_500, 'person', 'people')).toBe('2,500 people');
  });
});
