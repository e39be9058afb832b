import { dictionary } from '@zxcvbn-ts/language-common';
import { limits } from '../../../shared/limits.js';

/**
 * The most common passwords, from zxcvbn-ts' maintained list (issue: accounts). Only those long enough to
 * pass the length rule matter; built once, on first use.
 */
let common: Set<string> | undefined;
function commonPasswords(): Set<string> {
  common ??= new Set(
    dictionary['passwords-common'].filter((word) => word.length >= limits.password.min),
  );
  return common;
}

/** Why a password is refused beyond its length, or null when it is acceptable. */
export function passwordProblem(
  password: string,
  context: { email?: string; username?: string } = {},
): string | null {
  const lowered = password.toLowerCase();
  if (commonPasswords().has(lowered)) {
    return 'This password is one of the most common and easy to guess. Choose another.';
  }
  const personal = [context.username, context.email, context.email?.split('@')[0]]
    .filter((value): value is string => Boolean(value && value.length >= 3))
    .map((value) => value.toLowerCase());
  if (personal.includes(lowered)) {
    return "Don't use your username or email address as your password.";
  }
  return null;
}
