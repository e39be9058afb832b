/** Characters as people count them (code points, so an emoji is one), for limits and live counters. */
export function charCount(text: string): number {
  let count = 0;
  for (const _ of text) count += 1;
  return count;
}

/** Line endings as \n, trailing spaces of the whole text trimmed. */
export function normaliseMultiline(text: string): string {
  return text.replace(/\r\n?/g, '\n').trim();
}
