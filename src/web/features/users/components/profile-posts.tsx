import type { ReactNode } from 'react';
import { EmberIcon } from '@web/components/ui/icons.js';
import { StatusPanel } from '@web/components/ui/status-panel.js';

interface ProfilePostsProps {
  name: string;
  isOwner: boolean;
  /**
   * The list of posts, given the empty state to show when there are none. It comes from the page,
   * because features do not import each other and the posts belong to their own feature.
   */
  list: (empty: ReactNode) => ReactNode;
}

/** Issue: posts §5. The profile's posts, newest first, under a heading. */
export function ProfilePosts({ name, isOwner, list }: ProfilePostsProps) {
  const empty = (
    <StatusPanel title="No posts yet" headingLevel={3} icon={<EmberIcon />}>
      <p>
        {isOwner
          ? 'When you share something, it will show up here.'
          : `When ${name} shares something, it will show up here.`}
      </p>
    </StatusPanel>
  );
  return (
    <section className="profile-posts" aria-labelledby="profile-posts-heading">
      <h2 id="profile-posts-heading" className="section-title">
        Posts
      </h2>
      {list(empty)}
    </section>
  );
}
