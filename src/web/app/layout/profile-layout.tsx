import { Link } from 'react-router';
import { displayNameOf } from '@shared/display-name.js';
import { editProfilePath } from '@shared/paths.js';
import type { UserDocument } from '@shared/schemas/user.js';
import { useAuth } from '@web/features/auth/auth-state.js';
import { FollowButton } from '@web/features/follows/components/follow-button.js';
import { UserPostList } from '@web/features/posts/components/user-post-list.js';
import {
  ProfileBlockGate,
  ProfileMoreMenu,
  UnlessBlocked,
} from '@web/features/relationships/components/profile-relationship.js';
import { ProfileCard } from '@web/features/users/components/profile-card.js';
import { ProfilePosts } from '@web/features/users/components/profile-posts.js';
import { usePostViewer } from '../hooks/use-post-viewer.js';

/**
 * A loaded profile with the owner's actions and the posts section. It composes the auth, follows, posts
 * and users features, so it lives in the app shell, shared by the /{username} and /user/{uid} pages.
 */
export function ProfileLayout({ user }: { user: UserDocument }) {
  const auth = useAuth();
  const viewer = usePostViewer();
  const isOwner = auth.user?.uid === user.uid;
  const name = displayNameOf(user);
  const person = { uid: user.uid, name };
  const viewerUid = auth.isLoading ? null : (auth.user?.uid ?? null);
  return (
    <div className="page page--wide">
      <ProfileCard
        user={user}
        actions={
          isOwner ? (
            <Link className="button button--secondary" to={editProfilePath(user)}>
              Edit profile
            </Link>
          ) : auth.isLoading ? null : (
            <div className="profile__buttons">
              <UnlessBlocked viewerUid={viewerUid} person={person}>
                <FollowButton uid={user.uid} name={name} viewer={auth.user} />
              </UnlessBlocked>
              <ProfileMoreMenu person={person} />
            </div>
          )
        }
      />
      <ProfileBlockGate viewerUid={viewerUid} person={person}>
        <ProfilePosts
          name={name}
          isOwner={isOwner}
          list={(empty) => (
            <UserPostList uid={user.uid} viewer={viewer} label={`Posts by ${name}`} empty={empty} />
          )}
        />
      </ProfileBlockGate>
    </div>
  );
}
