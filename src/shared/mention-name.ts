import { limits } from './limits.js';
import { isReservedUsername } from './paths.js';

const usernamePattern = new RegExp(
  `^[a-z0-9_]{${String(limits.username.min)},${String(limits.username.max)}}$`,
);

/**
 * The username a `@name` token names (`@Ada` → `ada`), or null when no account could hold that name. Free
 * of the tokenizer, so the web app's first load can read a mention without it.
 */
export function mentionedUsername(token: string): string | null {
  const username = token.replace(/^@/, '').toLowerCase();
  return usernamePattern.test(username) && !isReservedUsername(username) ? username : null;
}
