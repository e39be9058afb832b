import { Navigate, useLocation, useParams } from 'react-router';
import { isReservedUsername } from '@shared/paths.js';
import { useUserByUsername } from '@web/features/users/api/get-user-by-username.js';
import {
  ProfileLoadState,
  ProfileNotFound,
} from '@web/features/users/components/profile-load-state.js';
import { useUserDocument } from '@web/features/users/hooks/use-user-document.js';
import { samePrefixPath } from '@web/features/users/profile-links.js';
import { profileTitle } from '@web/features/users/profile-title.js';
import { isApiError } from '@web/lib/api-client.js';
import { usePageTitle } from '../hooks/use-page-title.js';
import { ProfileLayout } from '../layout/profile-layout.js';

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

/** A /@{name} whose name is a route word: no account can hold it. */
function NoSuchHandle({ handle }: { handle: string }) {
  usePageTitle('Profile not found');
  return <ProfileNotFound handle={handle || null} />;
}

/** spec §2: /{username} and /ym/{username}, open to all; also /@{username}, as other networks write it. */
export function ProfilePage() {
  const { username = '' } = useParams();
  const location = useLocation();
  let canonical = username.toLowerCase();
  if (canonical.startsWith('@')) {
    canonical = canonical.slice(1);
    // /@feed is not the feed: a route word names no one, so it must not lead to its route.
    if (canonical === '' || isReservedUsername(canonical)) {
      return <NoSuchHandle handle={canonical} />;
    }
  }
  if (username !== canonical) {
    // Usernames are stored lowercase and written without the @ in addresses: one address per profile.
    // The last named segment: /@Ada/ must become /ada/, not /@Ada/ada.
    const segments = location.pathname.split('/');
    segments[segments.findLastIndex(Boolean)] = encodeURIComponent(canonical);
    return (
      <Navigate
        to={{ pathname: segments.join('/'), search: location.search, hash: location.hash }}
        replace
      />
    );
  }
  return <ProfileByUsername key={canonical} username={canonical} />;
}
