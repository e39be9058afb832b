import { describe, expect, it } from 'vitest';
import { fullTimeLabel, relativeTimeLabel } from './relative-time.js';

const now = Date.parse('2026-03-10T12:00:00Z');
const ago = (ms: number) => new Date(now - ms).toISOString();
const minute = 60_000;
const hour = 60 * minute;
const day = 24 * hour;

describe('relativeTimeLabel', () => {
  it('says "just now" for the last minute, and for a clock slightly ahead', () => {
    expect(relativeTimeLabel(ago(0), now, 'en')).toBe('just now');
    expect(relativeTimeLabel(ago(59_000), now, 'en')).toBe('just now');
    expect(relativeTimeLabel(ago(-5_000), now, 'en')).toBe('just now');
  });

  it('counts minutes, hours and days as people say them', () => {
    expect(relativeTimeLabel(ago(minute), now, 'en')).toBe('1 minute ago');
    expect(relativeTimeLabel(ago(5 * minute + 30_000), now, 'en')).toBe('5 minutes ago');
    expect(relativeTimeLabel(ago(hour), now, 'en')).toBe('1 hour ago');
    expect(relativeTimeLabel(ago(23 * hour), now, 'en')).toBe('23 hours ago');
    expect(relativeTimeLabel(ago(day), now, 'en')).toBe('yesterday');
    expect(relativeTimeLabel(ago(6 * day), now, 'en')).toBe('6 days ago');
  });

  it('keeps each locale’s formatters apart', () => {
    expect(relativeTimeLabel(ago(day), now, 'en')).toBe('yesterday');
    expect(relativeTimeLabel(ago(day), now, 'de')).toBe('gestern');
    expect(relativeTimeLabel(ago(day), now, 'en')).toBe('yesterday');
    expect(relativeTimeLabel('2025-12-24T12:00:00Z', now, 'de')).toBe('24. Dez. 2025');
    expect(relativeTimeLabel('2026-03-01T12:00:00Z', now, 'de')).toBe('1. März');
  });

  it('gives the date from a week on, with the year only when it is not this one', () => {
    expect(relativeTimeLabel('2026-03-01T12:00:00Z', now, 'en')).toBe('Mar 1');
    expect(relativeTimeLabel('2025-12-24T12:00:00Z', now, 'en')).toBe('Dec 24, 2025');
  });

  it('says nothing for a time it cannot read', () => {
    expect(relativeTimeLabel('not a time', now, 'en')).toBe('');
    expect(fullTimeLabel('not a time', 'en')).toBe('');
  });
});

describe('fullTimeLabel', () => {
  it('gives the whole date and the time', () => {
    expect(fullTimeLabel('2026-03-10T12:00:00Z', 'en')).toMatch(/^March 10, 2026/);
  });
});
