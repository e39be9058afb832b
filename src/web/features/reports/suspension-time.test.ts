import { describe, expect, it } from 'vitest';
import { timeUntilLabel } from './suspension-time.js';

const now = Date.parse('2025-05-01T12:00:00Z');

describe('timeUntilLabel', () => {
  it('says days for a suspension ending in days', () => {
    expect(timeUntilLabel('2025-05-04T12:00:00Z', now, 'en')).toBe('in 3 days');
  });
  it('says hours under two days', () => {
    expect(timeUntilLabel('2025-05-01T17:00:00Z', now, 'en')).toBe('in 5 hours');
  });
  it('says minutes under an hour', () => {
    expect(timeUntilLabel('2025-05-01T12:30:00Z', now, 'en')).toBe('in 30 minutes');
  });
  it('says "in a moment" at the end, and nothing for a bad date', () => {
    expect(timeUntilLabel('2025-05-01T11:00:00Z', now, 'en')).toBe('in a moment');
    expect(timeUntilLabel('not a date', now, 'en')).toBe('');
  });
});
