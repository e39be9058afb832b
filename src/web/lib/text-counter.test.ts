import { describe, expect, it } from 'vitest';
import { textCounter } from './text-counter.js';

describe('textCounter', () => {
  it('shows "n / max" and says nothing far from the limit', () => {
    expect(textCounter('Hello', 500)).toEqual({
      count: 5,
      max: 500,
      label: '5 / 500',
      over: false,
      near: false,
      announcement: null,
    });
  });

  it('counts as the server does: an emoji is one, surrounding space and CR are not counted', () => {
    expect(textCounter('🔥 hi', 500).count).toBe(4);
    expect(textCounter('  a\r\nb  \n', 500).count).toBe(3);
  });

  it('counts what a person sees: a family, a flag and an accented letter are one each', () => {
    expect(textCounter('👩‍👩‍👧‍👦', 500).label).toBe('1 / 500');
    expect(textCounter('🇫🇷 e\u0301 👍🏽', 500).count).toBe(5);
  });

  it('announces what is left near the limit', () => {
    const state = textCounter('x'.repeat(460), 500);
    expect(state.near).toBe(true);
    expect(state.announcement).toBe('40 characters left.');
    expect(textCounter('x'.repeat(499), 500).announcement).toBe('1 character left.');
  });

  it('is over past the limit and says by how much', () => {
    const state = textCounter('x'.repeat(503), 500);
    expect(state).toMatchObject({ over: true, near: false, label: '503 / 500' });
    expect(state.announcement).toBe('3 characters over the limit of 500.');
  });

  it('starts announcing at least 20 characters before a small limit', () => {
    expect(textCounter('x'.repeat(79), 100).near).toBe(false);
    expect(textCounter('x'.repeat(80), 100).near).toBe(true);
  });
});
