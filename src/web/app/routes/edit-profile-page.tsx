import { useQueryClient } from '@tanstack/react-query';
import { Link, useNavigate } from 'react-router';
import { displayNameOf } from '@shared/display-name.js';
import { editProfilePath, profilePath } from '@shared/paths.js';
import { LoadingScreen } from '@web/components/ui/loading-screen.js';
import { useAuth } from '@web/features/auth/auth-state.js';
import { refreshSession } from '@web/features/auth/session-sync.js';
import { Avatar } from '@web/components/ui/avatar.js';
import { ProfileEditForm } from '@web/features/users/components/profile-edit-form.js';
import { usePageTitle } from '../hooks/use-page-title.js';

/** spec §2: /{username}/edit-profile behind the owner guard (OwnerOnly), with the profile editor. */
export function EditProfilePage() {
  usePageTitle('Edit profile');
  const { user, me } = useAuth();
  const queryClient = useQueryClient();
  const navigate = useNavigate();
  if (!user) return <LoadingScreen />;
  const name = displayNameOf(user);
  return (
    <div className="page page--narrow">
      <header className="page__header">
        <h1>Edit profile</h1>
        <p className="lede">What everyone sees on your profile.</p>
      </header>
      <section className="card profile-summary" aria-label="Your profile today">
        <Avatar user={user} alt="" size="lg" />
        <div className="profile-summary__details">
          <p className="profile-summary__name">{name}</p>
          {user.username ? <p className="profile-summary__handle">@{user.username}</p> : null}
          {me ? (
            <p className="profile-summary__email">
              Signed in as {me.email}. Only you see your email address.
            </p>
          ) : null}
          <p className="profile-summary__links">
            <Link to={profilePath(user)}>View profile</Link>
            <Link to="/settings/account">Account settings</Link>
          </p>
        </div>
      </section>
      <ProfileEditForm
        user={user}
        usernameChangeAvailableAt={me?.usernameChangeAvailableAt ?? null}
        onSaved={(saved, previous) => {
          // The session's Me carries what the user document does not: the next allowed rename.
          refreshSession(queryClient);
          if (saved.username && saved.username !== previous.username) {
            void navigate(editProfilePath(saved), { replace: true });
          }
        }}
      />
    </div>
  );
}
