/**
 * Post, comment, like and follow ids (issue: posts): decimal strings of positive database integers, no
 * leading zero, at most 16 digits. Free of zod, so the server's topic and page patterns, the shared
 * schemas and the web app's first download all use this one rule.
 */

/** The digits of an id, for patterns that embed one (a topic, a path). */
export const idDigits = '[1-9][0-9]{0,15}';

/** A whole id and nothing else. */
export const idPattern = new RegExp(`^${idDigits}$`);
