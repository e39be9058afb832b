import { Link, Navigate, useLocation, useParams } from 'react-router';
import { displayNameOf } from '@shared/display-name.js';
import { editProfilePath, profilePath } from '@shared/paths.js';
import type { UserDocument } from '@shared/schemas/user.js';
import { CompassIcon } from '@web/components/ui/icons.js';
import { LoadErrorPanel } from '@web/components/ui/load-error-panel.js';
import { StatusPanel } from '@web/components/ui/status-panel.js';
import { useAuth } from '@web/features/auth/auth-state.js';
import { FollowButton } from '@web/features/follows/components/follow-button.js';
import { UserPostList } from '@web/features/posts/components/user-post-list.js';
import { useUserByUsername } from '@web/features/users/api/get-user-by-username.js';
import { ProfileCard } from '@web/features/users/components/profile-card.js';
import { ProfilePosts } from '@web/features/users/components/profile-posts.js';
import { ProfileSkeleton } from '@web/features/users/components/profile-skeleton.js';
import { useUserDocument } from '@web/features/users/hooks/use-user-document.js';
import { isApiError } from '@web/lib/api-client.js';
import { usePageTitle } from '../hooks/use-page-title.js';
import { usePostViewer } from '../hooks/use-post-viewer.js';

/** The not-found state for a username (or uid) that names nobody. */
export function ProfileNotFound({ handle }: { handle: string | null }) {
  return (
    <div className="page page--narrow">
      <StatusPanel
        title="Profile not found"
        headingLevel={1}
        icon={<CompassIcon />}
        actions={
          <Link className="button button--primary" to="/feed">
            Go to the feed
          </Link>
        }
      >
        <p>
          {handle ? `No one here goes by @${handle}.` : 'This account does not exist.'} Check the
          spelling, or the account may have been removed.
        </p>
      </StatusPanel>
    </div>
  );
}

/** The tab title of a profile: "Ada Lovelace (@ada)". */
/** What a profile page shows while its user is not there: loading, a load error with retry, or not found. */
export function ProfileLoadState({
  query,
  handle,
}: {
  query: {
    isPending: boolean;
    isError: boolean;
    error: Error | null;
    refetch: () => Promise<unknown>;
  };
  handle: string | null;
}) {
  if (query.isPending) {
    return (
      <div className="page page--wide">
        <ProfileSkeleton />
      </div>
    );
  }
  if (query.error && !isApiError(query.error, 'not_found')) {
    return (
      <div className="page page--narrow">
        <LoadErrorPanel
          title="We couldn't load this profile"
          error={query.error}
          onRetry={() => {
            void query.refetch();
          }}
        />
      </div>
    );
  }
  return <ProfileNotFound handle={handle} />;
}

export function profileTitle(user: UserDocument): string {
  const name = displayNameOf(user);
  return user.username ? `${name} (@${user.username})` : name;
}

/** A loaded profile with the owner's actions and the posts section. */
export function ProfileLayout({ user }: { user: UserDocument }) {
  const auth = useAuth();
  const viewer = usePostViewer();
  const isOwner = auth.user?.uid === user.uid;
  const name = displayNameOf(user);
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
            <FollowButton uid={user.uid} name={name} viewer={auth.user} />
          )
        }
      />
      <ProfilePosts
        name={name}
        isOwner={isOwner}
        list={(empty) => (
          <UserPostList uid={user.uid} viewer={viewer} label={`Posts by ${name}`} empty={empty} />
        )}
      />
    </div>
  );
}

/** The address of a profile under the same prefix the visitor used (spec §2: /{username} or /ym/{username}). */
export function samePrefixPath(pathname: string, user: UserDocument): string {
  const path = profilePath(user);
  return pathname.startsWith('/ym/') && user.username ? `/ym${path}` : path;
}

function ProfileByUsername({ username }: { username: string }) {
  const location = useLocation();
  const query = useUserByUsername(username);
  // spec §7 / DESIGN.md principle 4: the profile follows users/{uid} live once we know the uid.
  const live = useUserDocument(query.data?.uid);
  const user = live.hasSnapshot ? live.data : query.data;
  usePageTitle(
    user
      ? profileTitle(user)
      : isApiError(query.error, 'not_found')
        ? 'Profile not found'
        : 'Profile',
  );

  if (user) {
    // An old name (it redirects for 90 days after a rename), or a rename while we watched: show the
    // account's current address, replacing this one so Back does not bounce through the old name.
    if (user.username && user.username.toLowerCase() !== username) {
      return (
        <Navigate
          to={{
            pathname: samePrefixPath(location.pathname, user),
            search: location.search,
            hash: location.hash,
          }}
          replace
        />
      );
    }
    return <ProfileLayout user={user} />;
  }
  return <ProfileLoadState query={query} handle={username} />;
}

/** spec §2: /{username} and /ym/{username}, open to all. */
export function ProfilePage() {
  const { username = '' } = useParams();
  const location = useLocation();
  const lower = username.toLowerCase();
  if (username !== lower) {
    // Usernames are stored lowercase: show one canonical address for each profile.
    const segments = location.pathname.split('/');
    segments[segments.length - 1] = encodeURIComponent(lower);
    return (
      <Navigate
        to={{ pathname: segments.join('/'), search: location.search, hash: location.hash }}
        replace
      />
    );
  }
  return <ProfileByUsername key={lower} username={lower} />;
}
