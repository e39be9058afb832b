import { limits } from '@shared/limits.js';
import type { FeedTab, Page, PostView } from '@shared/schemas/post.js';
import { apiGet } from '@web/lib/api-client.js';
import { feedPath } from './get-feed.js';

/** GET /api/feed?after=: the tab's posts newer than `after`, newest first, at most limits.newPostsMax. */
export async function getNewPosts(tab: FeedTab, tag: string, after: string): Promise<PostView[]> {
  const page = await apiGet<Page<PostView>>(
    feedPath({ tab, tag, after, limit: limits.newPostsMax }),
  );
  return page.items;
}
