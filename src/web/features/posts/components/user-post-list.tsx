import type { ReactNode } from 'react';
import { useUserPosts } from '../api/get-user-posts.js';
import { useNewPosts } from '../hooks/use-new-posts.js';
import { postKeys } from '../post-keys.js';
import type { PostViewerState } from '../viewer.js';
import { PostList } from './post-list.js';

interface UserPostListProps {
  uid: string;
  viewer: PostViewerState;
  label: string;
  empty: ReactNode;
}

/** Issue: posts §5. A profile's posts, newest first, live like the feed. */
export function UserPostList({ uid, viewer, label, empty }: UserPostListProps) {
  const query = useUserPosts(uid);
  const queryKey = postKeys.byUser(uid);
  const newPosts = useNewPosts({
    queryKey,
    data: query.data,
    accepts: (post) => post.author.uid === uid,
  });
  return (
    <PostList
      queryKey={queryKey}
      query={query}
      viewer={viewer}
      label={label}
      empty={empty}
      errorTitle="We couldn’t load these posts"
      newPosts={newPosts}
    />
  );
}
