import type { FeedSignal } from '@shared/schemas/post.js';
import { getFeed } from './get-feed.js';

/**
 * The `feed` topic's snapshot read over HTTP (when the socket cannot deliver one): the newest post
 * of the Everyone feed is its head.
 */
export async function getFeedHead(): Promise<FeedSignal> {
  const page = await getFeed({ tab: 'everyone', tag: '', limit: 1 });
  return { head: page.items[0]?.id ?? null, change: null };
}
