import { limits } from '@shared/limits.js';
import { textRuleError } from '@web/lib/text-counter.js';

/*
 * The shared postBodySchema and altTextSchema, checked without zod so the feed's first download stays
 * small. Same counting (shared/text.ts), same limits, same words: the server remains the judge.
 */

/** Why a post's text cannot be sent, or null. */
export function postBodyError(text: string): string | null {
  return textRuleError(text, {
    max: limits.post.max,
    empty: 'Write something first.',
    tooLong: `Keep posts to ${limits.post.max.toLocaleString('en')} characters.`,
  });
}

/** Why an image description cannot be sent, or null. */
export function altTextError(text: string): string | null {
  return textRuleError(text, {
    max: limits.altText.max,
    tooLong: `Keep the description to ${String(limits.altText.max)} characters.`,
  });
}
