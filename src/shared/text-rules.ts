import { countLabel } from './count-label.js';
import { limits } from './limits.js';
import { charCount, normaliseMultiline } from './text.js';

/*
 * The rules of the app's longer texts (issue: posts, profiles), free of zod: the shared schemas apply
 * them on the server, and the web app's forms check them as typed without loading zod. One rule, one
 * message, one way of counting (charCount's grapheme clusters after normaliseMultiline), so a form and
 * the server never disagree.
 */

/** A limit on a multiline text, and what is said when it is broken. */
export interface TextRule {
  max: number;
  /** Said of a text with nothing in it; absent where an empty text is allowed. */
  empty?: string;
  tooLong: string;
}

/** A post's text; it may be empty when the post has images (see postError). */
export const postBodyRule: TextRule = {
  max: limits.post.max,
  tooLong: `Keep posts to ${countLabel(limits.post.max)} characters.`,
};

export const commentBodyRule: TextRule = {
  max: limits.comment.max,
  empty: 'Write a comment first.',
  tooLong: `Keep comments to ${countLabel(limits.comment.max)} characters.`,
};

/** An image's description (alt text). */
export const altTextRule: TextRule = {
  max: limits.altText.max,
  tooLong: `Keep the description to ${String(limits.altText.max)} characters.`,
};

export const bioRule: TextRule = {
  max: limits.bio.max,
  tooLong: `Keep your bio to ${String(limits.bio.max)} characters.`,
};

/** Said of a post with neither text nor images. */
export const emptyPostMessage = 'Write something or add an image.';

/** Why `text` breaks `rule`, or null. */
export function textRuleError(text: string, rule: TextRule): string | null {
  const normalised = normaliseMultiline(text);
  if (normalised === '') return rule.empty ?? null;
  // A cluster is at least one UTF-16 unit: a text no longer than the limit in units is within it uncounted.
  if (normalised.length <= rule.max) return null;
  return charCount(normalised, rule.max) > rule.max ? rule.tooLong : null;
}

/** Why a post of `text` with `imageCount` images cannot be published, or null: it needs one or the other. */
export function postError(text: string, imageCount: number): string | null {
  if (imageCount === 0 && normaliseMultiline(text) === '') return emptyPostMessage;
  return textRuleError(text, postBodyRule);
}
