import { describe, expect, it } from 'vitest';
import { toIsoString, toIsoStringOrNull } from './values.js';

describe('timestamps as ISO-8601 text', () => {
  it('keeps text already in the form toISOString writes', () => {
    const stored = '2026-11-29T09:44:09.123Z';
    expect(toIsoString(stored)).toBe(stored);
  });

  it("writes PostgreSQL's dates and other text forms in that form", () => {
    expect(toIsoString(new Date(Date.UTC(2026, 10, 29, 9, 44, 9, 123)))).toBe(
      '2026-11-29T09:44:09.123Z',
    );
    expect(toIsoString('2026-11-29 09:44:09Z')).toBe('2026-11-29T09:44:09.000Z');
    expect(toIsoString('2026-11-29T10:44:09.123+01:00')).toBe('2026-11-29T09:44:09.123Z');
    expect(toIsoStringOrNull(null)).toBeNull();
  });

  it('refuses text that is not a time', () => {
    expect(() => toIsoString('yesterday')).toThrow(RangeError);
  });
});
