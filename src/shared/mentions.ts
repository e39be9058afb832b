import { find } from 'linkifyjs';
// Both plugins, as the web app registers them: the same text must tokenize the same on either side.
import 'linkify-plugin-hashtag';
import 'linkify-plugin-mention';
import { mentionedUsername } from './mention-name.js';

export { mentionedUsername };

/** The distinct usernames a text mentions, lowercased, as the tokenizer that links them finds them. */
export function mentionedUsernames(text: string): string[] {
  const names = new Set<string>();
  for (const match of find(text, 'mention')) {
    const username = mentionedUsername(match.value);
    if (username) names.add(username);
  }
  return [...names];
}
