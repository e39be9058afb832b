import { dictionary } from '@zxcvbn-ts/language-common';
import { describe, expect, it } from 'vitest';
import { passwordProblem } from './password-policy.js';

const commonList = dictionary['passwords-common'];

describe('passwordProblem', () => {
  // Each of these is in zxcvbn-ts' list (checked below) and long enough to pass the length rule.
  const common = [
    'password',
    'password123',
    'iloveyou1',
    '12345678',
    'qwertyuiop',
    'trustno1',
    'sunshine',
  ];

  it('uses words that really are on the maintained list', () => {
    for (const word of common) expect(commonList).toContain(word);
  });

  it.each(common)('refuses the common password %j', (password) => {
    expect(passwordProblem(password)).toMatch(/most common/);
  });

  it('refuses a common password whatever its case', () => {
    expect(passwordProblem('PassWord123')).toMatch(/most common/);
  });

  it('refuses the username or the email address as the password', () => {
    const context = { username: 'ada_lovelace', email: 'countess.ada@example.test' };
    expect(passwordProblem('ada_lovelace', context)).toMatch(/username or email/);
    expect(passwordProblem('ADA_LOVELACE', context)).toMatch(/username or email/);
    expect(passwordProblem('countess.ada@example.test', context)).toMatch(/username or email/);
    expect(passwordProblem('countess.ada', context)).toMatch(/username or email/);
  });

  it('accepts a good passphrase', () => {
    expect(passwordProblem('copper kettle sings at dawn')).toBeNull();
    expect(
      passwordProblem('copper kettle sings at dawn', {
        username: 'ada_lovelace',
        email: 'ada@example.test',
      }),
    ).toBeNull();
  });

  it('accepts a password that merely contains a common word', () => {
    expect(passwordProblem('password123 is not my password')).toBeNull();
  });
});
