import { Navigate, useParams } from 'react-router';
import { profilePath } from '@shared/paths.js';
import { useUser } from '@web/features/users/api/get-user.js';
import { ProfileLoadState } from '@web/features/users/components/profile-load-state.js';
import { useUserDocument } from '@web/features/users/hooks/use-user-document.js';
import { profileTitle } from '@web/features/users/profile-title.js';
import { isApiError } from '@web/lib/api-client.js';
import { usePageTitle } from '../hooks/use-page-title.js';
import { ProfileLayout } from '../layout/profile-layout.js';

/**
 * spec §2: View Profile falls back to /user/{uid} for a user without a username. A user who has
 * one is sent to /{username}; one who has none is shown right here.
 */
export function UserByUidPage() {
  const { uid = '' } = useParams();
  const query = useUser(uid);
  const live = useUserDocument(query.data ? uid : null);
  const user = live.hasSnapshot ? live.data : query.data;
  usePageTitle(
    user
      ? profileTitle(user)
      : isApiError(query.error, 'not_found')
        ? 'Profile not found'
        : 'Profile',
  );

  if (user) {
    if (user.username) return <Navigate to={profilePath(user)} replace />;
    return <ProfileLayout user={user} />;
  }
  return <ProfileLoadState query={query} handle={null} />;
}
