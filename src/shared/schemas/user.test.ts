import { describe, expect, it } from 'vitest';
import { limits } from '../limits.js';
import { personNameSchema, uidParamsSchema, usernameSchema } from './user.js';

/** The first message zod gives for `value`, or null when it is accepted. */
function problem(
  schema: {
    safeParse(value: unknown): { success: boolean; error?: { issues: { message: string }[] } };
  },
  value: unknown,
) {
  const result = schema.safeParse(value);
  return result.success ? null : (result.error?.issues[0]?.message ?? 'invalid');
}

describe('usernameSchema', () => {
  it('accepts 3 to 30 of [a-z0-9_] and stores them lowercase, trimmed', () => {
    expect(usernameSchema.parse('abc')).toBe('abc');
    expect(usernameSchema.parse('a'.repeat(limits.username.max))).toBe('a'.repeat(30));
    expect(usernameSchema.parse('  Ada_Lovelace_1815 ')).toBe('ada_lovelace_1815');
  });

  it('refuses names that are too short or too long', () => {
    expect(problem(usernameSchema, 'ab')).toMatch(/at least 3/);
    expect(problem(usernameSchema, '')).toMatch(/at least 3/);
    expect(problem(usernameSchema, 'a'.repeat(31))).toMatch(/at most 30/);
  });

  it.each(['ada lovelace', 'ada-lovelace', 'ada.lovelace', 'ädam', 'ada!', 'ada\u0000x', '😀😀😀'])(
    'refuses invalid characters in %j',
    (value) => {
      expect(problem(usernameSchema, value)).toMatch(/letters, digits and underscores/);
    },
  );

  it.each(['admin', 'Admin', 'FEED', 'login', 'settings'])(
    'refuses the reserved %s with a reason',
    (value) => {
      expect(problem(usernameSchema, value)).toBe('That name is reserved. Please choose another.');
    },
  );

  it.each([null, undefined, 42, ['ada'], { name: 'ada' }])('refuses the non-string %j', (value) => {
    expect(problem(usernameSchema, value)).toBe('Enter a username.');
  });
});

describe('personNameSchema', () => {
  it('trims and accepts letters of any script up to 50 characters', () => {
    expect(personNameSchema.parse('  Ada ')).toBe('Ada');
    expect(personNameSchema.parse('Zoë Ōkubo-Łukasz')).toBe('Zoë Ōkubo-Łukasz');
    expect(personNameSchema.parse('x'.repeat(limits.name.max))).toHaveLength(50);
  });

  it('refuses names over 50 characters', () => {
    expect(problem(personNameSchema, 'x'.repeat(51))).toMatch(/at most 50/);
  });

  it.each(['Ada\u0000', 'Ada\nLovelace', 'A\u0007da', 'Ada\u001b[31m', 'Ada\u007f'])(
    'refuses control characters in %j',
    (value) => {
      expect(problem(personNameSchema, value)).toBe('Remove control characters.');
    },
  );
});

describe('uidParamsSchema', () => {
  it('accepts ids of letters, digits, _ and -', () => {
    expect(uidParamsSchema.parse({ uid: 'aB3_-x' })).toEqual({ uid: 'aB3_-x' });
  });

  it.each(['', '../etc', 'a b', 'a'.repeat(65), 'é'])('refuses %j', (uid) => {
    expect(uidParamsSchema.safeParse({ uid }).success).toBe(false);
  });
});
