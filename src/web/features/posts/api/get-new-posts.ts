import { limits } from '@shared/limits.js';
import type { FeedTab, PostView } from '@shared/schemas/post.js';
import { getFeed } from './get-feed.js';

/** GET /api/feed?after=: the tab's posts newer than `after`, newest first, at most limits.newPostsMax. */
export async function getNewPosts(tab: FeedTab, tag: string, after: string): Promise<PostView[]> {
  const page = await getFeed({ tab, tag, after, limit: limits.newPostsMax });
  return page.items;
}
