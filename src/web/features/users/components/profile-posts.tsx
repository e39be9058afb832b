import { EmberIcon } from '@web/components/ui/icons.js';
import { StatusPanel } from '@web/components/ui/status-panel.js';

interface ProfilePostsProps {
  name: string;
  isOwner: boolean;
}

/** The profile's posts section; posts arrive in a later release, so today it is the empty state. */
export function ProfilePosts({ name, isOwner }: ProfilePostsProps) {
  return (
    <section className="profile-posts" aria-labelledby="profile-posts-heading">
      <h2 id="profile-posts-heading" className="section-title">
        Posts
      </h2>
      <StatusPanel title="No posts yet" headingLevel={3} icon={<EmberIcon />}>
        <p>
          {isOwner
            ? 'When you share something, it will show up here.'
            : `When ${name} shares something, it will show up here.`}
        </p>
      </StatusPanel>
    </section>
  );
}
