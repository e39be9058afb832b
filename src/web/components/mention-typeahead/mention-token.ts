import { limits } from '@shared/limits.js';

/** The `@partial` being typed at the caret: where it starts (the `@`) and ends, and the name so far. */
export interface MentionToken {
  start: number;
  end: number;
  query: string;
}

const nameChar = /[A-Za-z0-9_]/;
// An @ begins a mention at the start of the text or after a space or an opening bracket or quote, as the
// linkify mention plugin reads it: `ana@example.com` is an address, not a mention.
const opener = /[\s([{"'“‘«]/u;

/**
 * The mention being typed at `caret` in `text`, or null: an `@` followed by at least one username
 * character up to the caret. A caret inside a name takes the whole name, so picking replaces all of it.
 */
export function findMentionToken(text: string, caret: number): MentionToken | null {
  if (caret < 0 || caret > text.length) return null;
  let start = caret;
  while (
    start > 0 &&
    caret - start <= limits.username.max &&
    nameChar.test(text.charAt(start - 1))
  ) {
    start -= 1;
  }
  const query = text.slice(start, caret);
  if (query.length === 0 || query.length > limits.username.max) return null;
  const at = start - 1;
  if (text.charAt(at) !== '@') return null;
  if (at > 0 && !opener.test(text.charAt(at - 1))) return null;
  let end = caret;
  while (end < text.length && nameChar.test(text.charAt(end))) end += 1;
  if (end - start > limits.username.max) return null;
  return { start: at, end, query };
}

/**
 * The text with `token` replaced by `@username ` and where the caret goes (after the space). A space
 * already following the name is used rather than doubled, and punctuation right after it is kept there.
 */
export function applyMention(
  text: string,
  token: MentionToken,
  username: string,
): { text: string; caret: number } {
  const before = text.slice(0, token.start);
  const after = text.slice(token.end);
  const mention = `@${username}`;
  if (/^\s/.test(after)) {
    return { text: `${before}${mention}${after}`, caret: before.length + mention.length + 1 };
  }
  // Punctuation already closing the name stays against it: "@ada, you", not "@ada , you".
  if (/^[,.!?;:)\]}'"”’»]/u.test(after)) {
    return { text: `${before}${mention}${after}`, caret: before.length + mention.length };
  }
  return { text: `${before}${mention} ${after}`, caret: before.length + mention.length + 1 };
}
