import { describe, expect, it } from 'vitest';
import { deviceLabel, lastActiveLabel, sessionActivityLabel } from './session-labels.js';

describe('deviceLabel', () => {
  it('names the browser and system, or says it is unknown', () => {
    expect(deviceLabel({ device: 'Firefox on Linux' })).toBe('Firefox on Linux');
    expect(deviceLabel({ device: null })).toBe('Unknown device');
    expect(deviceLabel({ device: '  ' })).toBe('Unknown device');
  });
});

describe('lastActiveLabel', () => {
  const now = Date.parse('2025-03-10T12:00:00Z');
  const ago = (ms: number) => new Date(now - ms).toISOString();

  it('says "just now" within a minute, also for a clock slightly ahead', () => {
    expect(lastActiveLabel(ago(20_000), now, 'en')).toBe('Last active just now');
    expect(lastActiveLabel(ago(-5_000), now, 'en')).toBe('Last active just now');
  });

  it('is relative in minutes, hours and days for the last week', () => {
    expect(lastActiveLabel(ago(60_000), now, 'en')).toBe('Last active 1 minute ago');
    expect(lastActiveLabel(ago(45 * 60_000), now, 'en')).toBe('Last active 45 minutes ago');
    expect(lastActiveLabel(ago(3 * 3_600_000), now, 'en')).toBe('Last active 3 hours ago');
    expect(lastActiveLabel(ago(2 * 86_400_000), now, 'en')).toBe('Last active 2 days ago');
  });

  it('gives the date after a week', () => {
    expect(lastActiveLabel('2025-01-05T08:00:00Z', now, 'en-GB')).toBe(
      'Last active on 5 January 2025',
    );
  });

  it('copes with an unreadable time', () => {
    expect(lastActiveLabel('nope', now, 'en')).toBe('Last active at an unknown time');
  });
});

describe('sessionActivityLabel', () => {
  const now = Date.parse('2025-03-10T12:00:00Z');
  const hourAgo = new Date(now - 3_600_000).toISOString();

  it('calls this device active now, whatever its stored time says', () => {
    expect(sessionActivityLabel({ current: true, lastSeenAt: hourAgo }, now, 'en')).toBe(
      'Active now',
    );
  });

  it('gives other devices their last activity', () => {
    expect(sessionActivityLabel({ current: false, lastSeenAt: hourAgo }, now, 'en')).toBe(
      'Last active 1 hour ago',
    );
  });
});
