import { find } from 'linkifyjs';
import 'linkify-plugin-hashtag';
import 'linkify-plugin-mention';

/** The distinct hashtags of a text, lower-cased and without '#', as the same tokenizer that renders them finds them. */
export function extractHashtags(text: string): string[] {
  const tags = new Set<string>();
  for (const match of find(text, 'hashtag')) tags.add(match.value.slice(1).toLowerCase());
  return [...tags];
}
