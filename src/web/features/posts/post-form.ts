import { limits } from '@shared/limits.js';
import { charCount, normaliseMultiline } from '@shared/text.js';

/*
 * The shared postBodySchema and altTextSchema, checked without zod so the feed's first download stays
 * small. Same counting (shared/text.ts), same limits, same words: the server remains the judge.
 */

/** Why a post's text cannot be sent, or null. */
export function postBodyError(text: string): string | null {
  const body = normaliseMultiline(text);
  if (body.length === 0) return 'Write something first.';
  if (charCount(body) > limits.post.max) {
    return `Keep posts to ${limits.post.max.toLocaleString('en')} characters.`;
  }
  return null;
}

/** Why an image description cannot be sent, or null. */
export function altTextError(text: string): string | null {
  if (charCount(normaliseMultiline(text)) > limits.altText.max) {
    return `Keep the description to ${String(limits.altText.max)} characters.`;
  }
  return null;
}
