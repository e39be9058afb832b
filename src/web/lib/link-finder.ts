/**
 * The link finder (ADR 0054): linkifyjs with its mention and hashtag plugins, in a chunk of its own. Its
 * evaluation builds linkifyjs's tables (its scanner and parser for every address, mention and hashtag
 * form), which it would otherwise build on the first text it reads: about 10 ms on a fast machine and four
 * times that on a phone. rich-text.ts loads it only for a text the quick reading of rich-segments.ts leaves
 * (an address, or a mark it is not sure of), and on a first page once the page has settled.
 */
import { find } from 'linkifyjs';
// The plugins register their token types with linkifyjs on import, before its first scan.
import 'linkify-plugin-hashtag';
import 'linkify-plugin-mention';
import {
  mayHoldLink,
  nameOrTagSegment,
  plainSegments,
  SegmentList,
  webHref,
  type RichSegment,
  type RichTextOptions,
} from './rich-segments.js';

find('');

/**
 * Splits user text into runs with linkifyjs (a maintained tokenizer, not a home-made regex), so the
 * page renders React elements and never HTML. Addresses without a scheme get https; a mention or a
 * hashtag that cannot name a user or a tag stays text, as do email addresses.
 */
export function linkedSegments(text: string, options: RichTextOptions = {}): RichSegment[] {
  if (!mayHoldLink(text)) return plainSegments(text);
  const list = new SegmentList();
  let cursor = 0;
  for (const match of find(text, { defaultProtocol: 'https' })) {
    list.text(text.slice(cursor, match.start));
    cursor = match.end;
    list.add(toSegment(match.type, match.value, match.href, options), match.value);
  }
  list.text(text.slice(cursor));
  return list.segments;
}

function toSegment(
  type: string,
  value: string,
  href: string,
  options: RichTextOptions,
): RichSegment | null {
  if (type === 'mention' || type === 'hashtag') return nameOrTagSegment(type, value, options);
  if (type !== 'url') return null;
  const web = webHref(href);
  return web ? { kind: 'link', text: value, href: web } : null;
}
