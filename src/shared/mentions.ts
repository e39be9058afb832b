import { find } from 'linkifyjs';
// Both plugins, as the web app registers them: the same text must tokenize the same on either side.
import 'linkify-plugin-hashtag';
import 'linkify-plugin-mention';
import { limits } from './limits.js';
import { isReservedUsername } from './paths.js';

const usernamePattern = new RegExp(
  `^[a-z0-9_]{${String(limits.username.min)},${String(limits.username.max)}}$`,
);

/** The username a `@name` token names (`@Ada` → `ada`), or null when no account could hold that name. */
export function mentionedUsername(token: string): string | null {
  const username = token.replace(/^@/, '').toLowerCase();
  return usernamePattern.test(username) && !isReservedUsername(username) ? username : null;
}

/** The distinct usernames a text mentions, lowercased, as the tokenizer that links them finds them. */
export function mentionedUsernames(text: string): string[] {
  const names = new Set<string>();
  for (const match of find(text, 'mention')) {
    const username = mentionedUsername(match.value);
    if (username) names.add(username);
  }
  return [...names];
}
