import { describe, expect, it } from 'vitest';
import { limits } from '../limits.js';
import {
  emailSchema,
  passwordSchema,
  resetPasswordBodySchema,
  signInBodySchema,
  signUpBodySchema,
} from './auth.js';

const validSignUp = {
  email: 'ada@example.test',
  username: 'ada_lovelace',
  password: 'a long enough secret',
  firstName: 'Ada',
  lastName: 'Lovelace',
};

/** The field of each issue of a failed parse, mapped to its first message. */
function fieldErrors(result: {
  success: boolean;
  error?: { issues: { path: PropertyKey[]; message: string }[] };
}) {
  const fields: Record<string, string> = {};
  for (const issue of result.error?.issues ?? []) fields[String(issue.path[0])] ??= issue.message;
  return fields;
}

describe('emailSchema', () => {
  it('trims and lowercases', () => {
    expect(emailSchema.parse('  Ada@Example.TEST ')).toBe('ada@example.test');
  });

  it.each(['', 'ada', 'ada@', '@example.test', 'ada@@example.test', 'ada example@test.io'])(
    'refuses %j',
    (value) => {
      expect(emailSchema.safeParse(value).success).toBe(false);
    },
  );

  it('refuses addresses over 254 characters', () => {
    const long = `${'a'.repeat(64)}@${'b'.repeat(limits.email.max)}.test`;
    const result = emailSchema.safeParse(long);
    expect(result.success).toBe(false);
    expect(result.error?.issues[0]?.message).toMatch(/too long/);
  });

  it('refuses non-strings with a plain message', () => {
    expect(emailSchema.safeParse(7).error?.issues[0]?.message).toBe('Enter your email address.');
  });
});

describe('passwordSchema', () => {
  it('accepts 8 to 128 characters, spaces and all', () => {
    expect(passwordSchema.safeParse('12345678').success).toBe(true);
    expect(passwordSchema.safeParse(' '.repeat(8)).success).toBe(true);
    expect(passwordSchema.safeParse('x'.repeat(limits.password.max)).success).toBe(true);
  });

  it('refuses 7 or 129 characters', () => {
    expect(passwordSchema.safeParse('1234567').error?.issues[0]?.message).toMatch(/at least 8/);
    expect(passwordSchema.safeParse('x'.repeat(129)).error?.issues[0]?.message).toMatch(
      /at most 128/,
    );
  });

  it('never trims a password', () => {
    expect(passwordSchema.parse('  secret words  ')).toBe('  secret words  ');
  });
});

describe('signUpBodySchema', () => {
  it('accepts a complete sign-up and normalises it', () => {
    expect(
      signUpBodySchema.parse({
        ...validSignUp,
        email: 'ADA@example.test',
        username: 'Ada_Lovelace',
      }),
    ).toEqual(validSignUp);
  });

  it('names every missing field', () => {
    expect(Object.keys(fieldErrors(signUpBodySchema.safeParse({}))).sort()).toEqual([
      'email',
      'firstName',
      'lastName',
      'password',
      'username',
    ]);
  });

  it('requires a first and last name that are not blank', () => {
    const fields = fieldErrors(
      signUpBodySchema.safeParse({ ...validSignUp, firstName: '  ', lastName: '' }),
    );
    expect(fields.firstName).toBe('Enter your first name.');
    expect(fields.lastName).toBe('Enter your last name.');
  });

  it('refuses control characters in names', () => {
    const fields = fieldErrors(
      signUpBodySchema.safeParse({
        ...validSignUp,
        firstName: 'Ada\u0000',
        lastName: 'Love\u0085lace',
      }),
    );
    expect(fields.firstName).toBe('Remove control characters.');
    expect(fields.lastName).toBe('Remove control characters.');
  });
});

describe('signInBodySchema', () => {
  it('accepts an email or a username, trimmed', () => {
    expect(signInBodySchema.parse({ identifier: ' Ada ', password: 'x' })).toEqual({
      identifier: 'Ada',
      password: 'x',
    });
  });

  it('refuses a missing identifier or password', () => {
    const fields = fieldErrors(signInBodySchema.safeParse({ identifier: '  ', password: '' }));
    expect(fields.identifier).toBe('Enter your email or username.');
    expect(fields.password).toBe('Enter your password.');
  });

  it('refuses an over-long password instead of hashing it', () => {
    expect(
      signInBodySchema.safeParse({ identifier: 'ada', password: 'x'.repeat(129) }).success,
    ).toBe(false);
  });
});

describe('resetPasswordBodySchema', () => {
  it('requires a token and a new password of valid length', () => {
    const fields = fieldErrors(
      resetPasswordBodySchema.safeParse({ token: '', newPassword: 'short' }),
    );
    expect(fields.token).toBeDefined();
    expect(fields.newPassword).toMatch(/at least 8/);
    expect(
      resetPasswordBodySchema.safeParse({ token: 'x'.repeat(257), newPassword: 'long enough' })
        .success,
    ).toBe(false);
  });
});
