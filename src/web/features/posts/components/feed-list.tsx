import type { ReactNode } from 'react';
import type { FeedTab } from '@shared/schemas/post.js';
import { useFeed } from '../api/get-feed.js';
import { getNewPosts } from '../api/get-new-posts.js';
import { useNewPosts } from '../hooks/use-new-posts.js';
import { postKeys } from '../post-keys.js';
import type { PostViewerState } from '../viewer.js';
import { PostList } from './post-list.js';

interface FeedListProps {
  tab: FeedTab;
  /** A hashtag filtering the Everyone feed; '' for none. */
  tag: string;
  viewer: PostViewerState;
  label: string;
  empty: ReactNode;
}

/** One feed (a tab, or a hashtag), newest first, live: new posts wait behind "Show N new posts". */
export function FeedList({ tab, tag, viewer, label, empty }: FeedListProps) {
  const query = useFeed(tab, tag);
  const queryKey = postKeys.feed(tab, tag);
  const newPosts = useNewPosts({
    queryKey,
    data: query.data,
    fetchNewer: (after) => getNewPosts(tab, tag, after),
  });
  return (
    <PostList
      queryKey={queryKey}
      query={query}
      viewer={viewer}
      label={label}
      empty={empty}
      errorTitle="We couldn’t load the feed"
      newPosts={newPosts}
    />
  );
}
