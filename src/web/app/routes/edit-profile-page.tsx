import { Link } from 'react-router';
import { displayNameOf } from '@shared/display-name.js';
import { profilePath } from '@shared/paths.js';
import { LoadingScreen } from '@web/components/ui/loading-screen.js';
import { useAuth } from '@web/features/auth/auth-state.js';
import { Avatar } from '@web/features/users/components/avatar.js';
import { usePageTitle } from '../hooks/use-page-title.js';

/**
 * spec §2: /{username}/edit-profile behind the owner guard. The server's profile-update endpoint
 * comes with the next release, so this page shows the profile as it stands and says so.
 */
export function EditProfilePage() {
  usePageTitle('Edit profile');
  const { user, me } = useAuth();
  if (!user) return <LoadingScreen />;
  const name = displayNameOf(user);
  return (
    <div className="page page--narrow">
      <header className="page__header">
        <h1>Edit profile</h1>
        <p className="lede">How others see you, and the details only you can see.</p>
      </header>
      <section className="card profile-summary" aria-label="Your profile today">
        <Avatar user={user} alt={`${name}'s avatar`} size="lg" />
        <dl className="profile-summary__details">
          <div>
            <dt>Name</dt>
            <dd>{name}</dd>
          </div>
          {user.username ? (
            <div>
              <dt>Username</dt>
              <dd>@{user.username}</dd>
            </div>
          ) : null}
          {me ? (
            <div>
              <dt>Email (only you see this)</dt>
              <dd>{me.email}</dd>
            </div>
          ) : null}
          <div>
            <dt>Bio</dt>
            <dd>{user.bio ?? <span className="muted">No bio yet</span>}</dd>
          </div>
        </dl>
      </section>
      <div className="notice notice--info" role="note">
        <h2 className="notice__title">Profile editing opens in the next release</h2>
        <p>
          Soon you&apos;ll change your name, bio, avatar and cover image here. Until then your
          profile shows the details you signed up with.
        </p>
      </div>
      <p>
        <Link className="button button--secondary" to={profilePath(user)}>
          View your profile
        </Link>
      </p>
    </div>
  );
}
