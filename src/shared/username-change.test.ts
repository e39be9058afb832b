import { describe, expect, it } from 'vitest';
import { limits } from './limits.js';
import {
  usernameCooldownEnds,
  usernameCooldownMessage,
  usernameLockedUntil,
} from './username-change.js';

const now = Date.parse('2025-03-01T12:00:00Z');
const dayMs = 24 * 60 * 60 * 1000;

describe('usernameCooldownEnds (the rule the server enforces)', () => {
  it('is null for a name never changed, or changed longer ago than the cooldown', () => {
    expect(usernameCooldownEnds(null, now)).toBeNull();
    const longAgo = new Date(now - limits.usernameChange.cooldownDays * dayMs).toISOString();
    expect(usernameCooldownEnds(longAgo, now)).toBeNull();
  });

  it('is the moment the cooldown lifts while it holds, from either dialect’s timestamp text', () => {
    expect(usernameCooldownEnds('2025-02-20T12:00:00.000Z', now)?.toISOString()).toBe(
      new Date(
        Date.parse('2025-02-20T12:00:00Z') + limits.usernameChange.cooldownDays * dayMs,
      ).toISOString(),
    );
    expect(usernameCooldownEnds('2025-02-28T12:00:00Z', now)).not.toBeNull();
  });
});

describe('usernameLockedUntil (the form reading Me.usernameChangeAvailableAt)', () => {
  it('is null when the name may change now', () => {
    expect(usernameLockedUntil(null, now)).toBeNull();
    expect(usernameLockedUntil('2025-03-01T11:00:00Z', now)).toBeNull();
    expect(usernameLockedUntil('not a date', now)).toBeNull();
  });

  it('is the date the rule lifts while it holds', () => {
    expect(usernameLockedUntil('2025-03-20T00:00:00Z', now)?.toISOString()).toBe(
      '2025-03-20T00:00:00.000Z',
    );
  });

  it('agrees with the rule: the server’s date holds exactly as long as the cooldown', () => {
    const changedAt = '2025-02-20T12:00:00.000Z';
    const availableAt = usernameCooldownEnds(changedAt, now)?.toISOString() ?? null;
    expect(usernameLockedUntil(availableAt, now)).toEqual(usernameCooldownEnds(changedAt, now));
  });
});

describe('usernameCooldownMessage', () => {
  it('names the day the cooldown lifts', () => {
    expect(usernameCooldownMessage('March 31, 2025')).toBe(
      'You changed your username recently. You can change it again on March 31, 2025.',
    );
  });
});
