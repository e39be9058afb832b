import { find } from 'linkifyjs';

/** A run of a bio: plain text, or a web address to render as a link. */
export type BioSegment =
  { kind: 'text'; text: string } | { kind: 'link'; text: string; href: string };

/** Only web links become anchors: a `javascript:` or `data:` address stays plain text. */
function webHref(candidate: string): string | null {
  try {
    const url = new URL(candidate);
    return url.protocol === 'http:' || url.protocol === 'https:' ? url.href : null;
  } catch {
    return null;
  }
}

/**
 * Splits a bio into text and web links with linkifyjs (a maintained tokenizer, not a home-made
 * regex), so the page renders React elements and never HTML. Addresses without a scheme get https.
 */
export function bioSegments(bio: string): BioSegment[] {
  const segments: BioSegment[] = [];
  let cursor = 0;
  const pushText = (text: string) => {
    if (text === '') return;
    const last = segments.at(-1);
    if (last?.kind === 'text') last.text += text;
    else segments.push({ kind: 'text', text });
  };
  for (const match of find(bio, 'url', { defaultProtocol: 'https' })) {
    pushText(bio.slice(cursor, match.start));
    const href = webHref(match.href);
    if (href) segments.push({ kind: 'link', text: match.value, href });
    else pushText(match.value);
    cursor = match.end;
  }
  pushText(bio.slice(cursor));
  return segments;
}

/** The profile's website as a link labelled with its host name; null for anything not http(s). */
export function websiteLink(value: string | null): { href: string; label: string } | null {
  if (!value) return null;
  const href = webHref(value);
  if (!href) return null;
  return { href, label: new URL(href).host };
}
