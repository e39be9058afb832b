import { charCount, normaliseMultiline } from '@shared/text.js';

/** What a live character counter shows and says. */
export interface TextCounter {
  count: number;
  max: number;
  /** "n / max", as shown under the field. */
  label: string;
  over: boolean;
  /** Close enough to the limit that screen reader users are told how much is left. */
  near: boolean;
  /** The polite announcement near or over the limit; null when there is nothing to say. */
  announcement: string | null;
}

const plural = (count: number, word: string) => `${count} ${word}${count === 1 ? '' : 's'}`;

/**
 * Counts as the server does (shared text rules: line endings normalised, trimmed, grapheme clusters),
 * so the counter and the server's verdict never disagree.
 */
export function textCounter(text: string, max: number): TextCounter {
  // An empty field (every form's first render, the composer's placeholder) needs none of the text rules.
  const count = text === '' ? 0 : charCount(normaliseMultiline(text));
  const remaining = max - count;
  const over = remaining < 0;
  const near = !over && remaining <= Math.max(20, Math.round(max * 0.1));
  let announcement: string | null = null;
  if (over) announcement = `${plural(-remaining, 'character')} over the limit of ${max}.`;
  else if (near) announcement = `${plural(remaining, 'character')} left.`;
  return { count, max, label: `${count} / ${max}`, over, near, announcement };
}
