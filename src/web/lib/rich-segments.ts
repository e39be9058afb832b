/**
 * User text split into runs (ADR 0054): the shapes, and what is read without linkifyjs. The link finder
 * (link-finder.ts) and the page's hooks (rich-text.ts) build on it.
 */
import { mentionedUsername } from '@shared/mention-name.js';
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
 * What anything linkifyjs finds holds: `@` (a mention, an email address), `#` (a hashtag), `localhost`, a
 * scheme's colon followed by more (`mailto:a`, `https://`), or a dot between a name and its top-level
 * domain. A text with none of them, where every `.` and `:` ends the text or comes before a space, tab or
 * line break, is plain: most posts, whose sentences end in a dot and a space. linkifyjs reads every
 * character through its state machine: about 12 µs for a post of 100 characters once its code is warm,
 * and 2–14 ms for the first twenty while it is still cold, as when the feed first renders; this test takes
 * well under a microsecond.
 */
const linkHint = /[@#]|[.:][^ \t\n\r]|localhost/i;

/** What a web address or an email address holds: the `linkHint`s other than `@` and `#`. */
const addressHint = /[.:][^ \t\n\r]|localhost/i;

/** False for a text in which linkifyjs finds nothing, told without it (see `linkHint`). */
export function mayHoldLink(text: string): boolean {
  return linkHint.test(text);
}

/** A text as one plain run (none for an empty text): what it shows until its links are found. */
export function plainSegments(text: string): RichSegment[] {
  return text === '' ? [] : [{ kind: 'text', text }];
}

/** Builds a list of runs, joining consecutive text into one run, as linkifyjs's own output reads. */
export class SegmentList {
  readonly segments: RichSegment[] = [];

  text(value: string): void {
    if (value === '') return;
    const last = this.segments.at(-1);
    if (last?.kind === 'text') last.text += value;
    else this.segments.push({ kind: 'text', text: value });
  }

  /** A link, or its text when it is not one to show (`null`). */
  add(segment: RichSegment | null, value: string): void {
    if (segment) this.segments.push(segment);
    else this.text(value);
  }
}

/**
 * A `@name` or `#tag` token as the page links it: a mention of a well-formed name (every one, or only those
 * listed), a hashtag the server would store; null for one that stays text.
 */
export function nameOrTagSegment(
  kind: 'mention' | 'hashtag',
  value: string,
  options: RichTextOptions,
): RichSegment | null {
  if (kind === 'mention') {
    const { mentions } = options;
    if (!mentions) return null;
    const username = mentionedUsername(value);
    if (!username || (mentions !== true && !mentions.includes(username))) return null;
    return { kind: 'mention', text: value, username, href: profilePath({ uid: '', username }) };
  }
  if (!options.hashtags) return null;
  const tag = value.slice(1);
  if (!hashtagPattern.test(tag)) return null;
  const lower = tag.toLowerCase();
  return { kind: 'hashtag', text: value, tag: lower, href: hashtagPath(lower) };
}

/** The marks a hashtag or a mention begins with. */
const tokenStart = /[#@]/g;
/** What the quick reading takes after the mark. */
const tokenBody = /[A-Za-z0-9_]+/y;
/** What may follow a token it takes. */
const tokenEnd = /[ \t\n\r.,!?;)'"]/;
/** What may come before a token it takes, unless the token starts the text. */
const spaceBefore = /[ \t\n\r]/;

/**
 * The runs of a text whose only possible links are plain `#tag`s and `@name`s (ADR 0054), read without
 * linkifyjs: no address hint (`addressHint`), and each `#` and `@` at the start or after a space, followed
 * by ASCII letters, digits and underscores, then the end, a space or `. , ! ? ; ) ' "`. That is what most
 * posts with a hashtag or a mention look like. linkifyjs reads such a token as a mention, and as a
 * hashtag when it holds a letter. Null for any other text, which waits for the link finder. A fuzz holds
 * this reading to linkifyjs's own (`rich-segments.test.ts`).
 */
export function quickSegments(text: string, options: RichTextOptions): RichSegment[] | null {
  if (!mayHoldLink(text)) return plainSegments(text);
  if (addressHint.test(text)) return null;
  const list = new SegmentList();
  let cursor = 0;
  tokenStart.lastIndex = 0;
  for (let match = tokenStart.exec(text); match; match = tokenStart.exec(text)) {
    const start = match.index;
    if (start > 0 && !spaceBefore.test(text.charAt(start - 1))) return null;
    tokenBody.lastIndex = start + 1;
    const body = tokenBody.exec(text);
    if (!body) return null;
    const end = start + 1 + body[0].length;
    if (end < text.length && !tokenEnd.test(text.charAt(end))) return null;
    const value = text.slice(start, end);
    list.text(text.slice(cursor, start));
    const isTag = match[0] === '#';
    if (isTag && !/[A-Za-z]/.test(body[0])) list.text(value);
    else list.add(nameOrTagSegment(isTag ? 'hashtag' : 'mention', value, options), value);
    cursor = end;
    tokenStart.lastIndex = end;
  }
  list.text(text.slice(cursor));
  return list.segments;
}
