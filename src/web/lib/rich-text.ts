import { find } from 'linkifyjs';
// The plugins register their token types with linkifyjs on import, before its first scan.
import 'linkify-plugin-hashtag';
import 'linkify-plugin-mention';
import { mentionedUsername } from '@shared/mentions.js';
import { hashtagPath, profilePath } from '@shared/paths.js';

/** A run of user text: plain, a web link, a @mention of a profile, or a #hashtag and its page. */
export type RichSegment =
  | { kind: 'text'; text: string }
  | { kind: 'link'; text: string; href: string }
  | { kind: 'mention'; text: string; username: string; href: string }
  | { kind: 'hashtag'; text: string; tag: string; href: string };

export interface RichTextOptions {
  /**
   * `@name` links to the profile /{name}: every well-formed name (posts and comments), or only the names
   * listed (bios, whose document lists the mentioned accounts that exist); the rest stay text.
   */
  mentions?: boolean | readonly string[];
  /** `#tag` links to the tag's own page, /tags/{tag}. */
  hashtags?: boolean;
}

/** The shape the server accepts for a hashtag (shared hashtagSchema), kept free of zod for the feed's first load. */
const hashtagPattern = /^[\p{L}\p{N}_]{1,100}$/u;

/**
 * A tag as an address or a search names it (/tags/Café, ?tag=%23cafe): trimmed, without '#', lowercased
 * as the server stores tags; null when no hashtag can be spelled so.
 */
export function hashtagOf(raw: string): string | null {
  const tag = raw.trim().replace(/^#/, '').toLowerCase();
  return hashtagPattern.test(tag) ? tag : null;
}

/** Only web links become anchors: a `javascript:` or `data:` address stays plain text. */
export function webHref(candidate: string): string | null {
  try {
    const url = new URL(candidate);
    return url.protocol === 'http:' || url.protocol === 'https:' ? url.href : null;
  } catch {
    return null;
  }
}

/**
 * Builds linkifyjs's tables (its scanner and parser for every address, mention and hashtag form), which it
 * otherwise builds on the first text it reads: about 10 ms on a fast machine and four times that on a
 * phone, in the same task as the first list's render. main.tsx calls this in a task of its own.
 */
export function warmRichText(): void {
  find('');
}

/**
 * What anything linkifyjs finds holds: `@` (a mention, an email address), `#` (a hashtag), `localhost`, a
 * scheme's colon followed by more (`mailto:a`, `https://`), or a dot between a name and its top-level
 * domain. A text with none of them, where every `.` and `:` ends the text or comes before a space, tab or
 * line break, is plain: most posts, whose sentences end in a dot and a space. linkifyjs reads every
 * character through its state machine: about 12 µs for a post of 100 characters once its code is warm,
 * and 2–14 ms for the first twenty while it is still cold, as when the feed first renders; this test takes
 * well under a microsecond.
 */
const linkHint = /[@#]|[.:][^ \t\n\r]|localhost/i;

/** False for a text in which linkifyjs finds nothing, told without it (see `linkHint`). */
export function mayHoldLink(text: string): boolean {
  return linkHint.test(text);
}

/**
 * Splits user text into runs with linkifyjs (a maintained tokenizer, not a home-made regex), so the
 * page renders React elements and never HTML. Addresses without a scheme get https; a mention or a
 * hashtag that cannot name a user or a tag stays text, as do email addresses.
 */
export function richTextSegments(text: string, options: RichTextOptions = {}): RichSegment[] {
  if (!mayHoldLink(text)) return text === '' ? [] : [{ kind: 'text', text }];
  const segments: RichSegment[] = [];
  let cursor = 0;
  const pushText = (value: string) => {
    if (value === '') return;
    const last = segments.at(-1);
    if (last?.kind === 'text') last.text += value;
    else segments.push({ kind: 'text', text: value });
  };
  for (const match of find(text, { defaultProtocol: 'https' })) {
    pushText(text.slice(cursor, match.start));
    cursor = match.end;
    const segment = toSegment(match.type, match.value, match.href, options);
    if (segment) segments.push(segment);
    else pushText(match.value);
  }
  pushText(text.slice(cursor));
  return segments;
}

function toSegment(
  type: string,
  value: string,
  href: string,
  options: RichTextOptions,
): RichSegment | null {
  switch (type) {
    case 'url': {
      const web = webHref(href);
      return web ? { kind: 'link', text: value, href: web } : null;
    }
    case 'mention': {
      const { mentions } = options;
      if (!mentions) return null;
      const username = mentionedUsername(value);
      if (!username || (mentions !== true && !mentions.includes(username))) return null;
      return { kind: 'mention', text: value, username, href: profilePath({ uid: '', username }) };
    }
    case 'hashtag': {
      if (!options.hashtags) return null;
      const tag = value.slice(1);
      if (!hashtagPattern.test(tag)) return null;
      const lower = tag.toLowerCase();
      return { kind: 'hashtag', text: value, tag: lower, href: hashtagPath(lower) };
    }
    default:
      return null;
  }
}

/** The distinct hashtags of a text, lowercased, as the feed filters by them. */
export function hashtagsOf(text: string): string[] {
  const tags = new Set<string>();
  for (const segment of richTextSegments(text, { hashtags: true })) {
    if (segment.kind === 'hashtag') tags.add(segment.tag);
  }
  return [...tags];
}
