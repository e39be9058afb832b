import type { FeedTab } from '@shared/schemas/post.js';

/** What the feed page shows, read from its address (issue: posts §6). */
export type FeedView =
  | { kind: 'tab'; tab: FeedTab }
  /** The Everyone feed filtered by a hashtag: /feed?tag=x */
  | { kind: 'tag'; tag: string }
  /** ?tag= holds something no hashtag can be. */
  | { kind: 'bad-tag'; text: string };

/** The shared hashtagSchema's rule, without zod (the feed's first download stays small). */
const hashtagPattern = /^[\p{L}\p{N}_]{1,100}$/u;

/**
 * `?tab=everyone` or `?tab=following` (the default when signed in; visitors only have Everyone),
 * or `?tag=x`, which wins. A tag is read as the server reads it: trimmed, lowercased, no '#'.
 */
export function feedViewOf(params: URLSearchParams, signedIn: boolean): FeedView {
  const rawTag = params.get('tag');
  if (rawTag !== null) {
    const tag = rawTag.trim().replace(/^#/, '').toLowerCase();
    return hashtagPattern.test(tag) ? { kind: 'tag', tag } : { kind: 'bad-tag', text: rawTag };
  }
  if (!signedIn) return { kind: 'tab', tab: 'everyone' };
  return { kind: 'tab', tab: params.get('tab') === 'everyone' ? 'everyone' : 'following' };
}

/** The address of a tab: Following is the signed-in default, so it needs no parameter. */
export function feedTabSearch(tab: FeedTab): string {
  return tab === 'everyone' ? '?tab=everyone' : '';
}
