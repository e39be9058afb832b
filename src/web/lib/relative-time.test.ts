import { describe, expect, it } from 'vitest';
import { fullTimeLabel, longDateLabel, monthLabel, relativeTimeLabel } from './relative-time.js';

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

  it('writes English whatever the locale, with the day first outside the United States', () => {
    expect(relativeTimeLabel(ago(day), now, 'de-DE')).toBe('yesterday');
    expect(relativeTimeLabel(ago(3 * hour), now, 'fr')).toBe('3 hours ago');
    expect(relativeTimeLabel('2025-12-24T12:00:00Z', now, 'en-GB')).toBe('24 Dec 2025');
    expect(relativeTimeLabel('2026-03-01T12:00:00Z', now, 'de-DE')).toBe('1 Mar');
    expect(relativeTimeLabel('2026-03-01T12:00:00Z', now, 'en-US')).toBe('Mar 1');
  });

  it('gives each label as the browser’s own formatters give it in English', () => {
    const times = [ago(minute), ago(2 * hour), ago(day), ago(3 * day)];
    const words = new Intl.RelativeTimeFormat('en', { numeric: 'auto' });
    expect(times.map((time) => relativeTimeLabel(time, now, 'en'))).toEqual([
      words.format(-1, 'minute'),
      words.format(-2, 'hour'),
      words.format(-1, 'day'),
      words.format(-3, 'day'),
    ]);
    for (const [locale, iso] of [
      ['en-US', '2025-07-04T09:05:00Z'],
      ['en-GB', '2025-07-04T21:45:00Z'],
      ['en-US', '2026-01-01T00:30:00Z'],
      ['en-GB', '2026-02-28T12:00:00Z'],
    ] as const) {
      const date = new Date(iso);
      const sameYear = date.getFullYear() === new Date(now).getFullYear();
      expect(relativeTimeLabel(iso, now, locale)).toBe(
        new Intl.DateTimeFormat(locale, {
          month: 'short',
          day: 'numeric',
          ...(sameYear ? {} : { year: 'numeric' }),
        }).format(date),
      );
      expect(fullTimeLabel(iso, locale)).toBe(
        new Intl.DateTimeFormat(locale, { dateStyle: 'long', timeStyle: 'short' })
          .format(date)
          .replace(/\s/g, ' '),
      );
      expect(longDateLabel(iso, locale)).toBe(
        new Intl.DateTimeFormat(locale, { dateStyle: 'long' }).format(date),
      );
    }
    expect(monthLabel('2026-03-10T12:00:00Z')).toBe('March 2026');
  });

  it('gives the date from a week on, with the year only when it is not this one', () => {
    expect(relativeTimeLabel('2026-03-01T12:00:00Z', now, 'en')).toBe('Mar 1');
    expect(relativeTimeLabel('2025-12-24T12:00:00Z', now, 'en')).toBe('Dec 24, 2025');
  });

  it('says nothing for a time it cannot read', () => {
    expect(relativeTimeLabel('not a time', now, 'en')).toBe('');
    expect(fullTimeLabel('not a time', 'en')).toBe('');
    expect(longDateLabel('not a time', 'en')).toBe('');
    expect(monthLabel('not a time')).toBe('');
  });
});

describe('fullTimeLabel', () => {
  it('gives the whole date and the time', () => {
    expect(fullTimeLabel('2026-03-10T12:00:00Z', 'en')).toMatch(/^March 10, 2026/);
  });
});
