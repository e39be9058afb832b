import { useRef } from 'react';
import { Link, Navigate, NavLink, useLocation, useParams } from 'react-router';
import { displayNameOf } from '@shared/display-name.js';
import { followListPath, isReservedUsername, profilePath } from '@shared/paths.js';
import type { Author } from '@shared/schemas/post.js';
import type { UserDocument } from '@shared/schemas/user.js';
import { LoadErrorPanel } from '@web/components/ui/load-error-panel.js';
import { LoadMoreButton } from '@web/components/ui/load-more-button.js';
import { StatusPanel } from '@web/components/ui/status-panel.js';
import { EmberIcon } from '@web/components/ui/icons.js';
import { useAuth } from '@web/features/auth/auth-state.js';
import { useFollowList } from '@web/features/follows/api/get-follow-list.js';
import { FollowButton, type FollowViewer } from '@web/features/follows/components/follow-button.js';
import type { FollowListKind } from '@web/features/follows/follow-keys.js';
import { useUserByUsername } from '@web/features/users/api/get-user-by-username.js';
import {
  ProfileLoadState,
  ProfileNotFound,
} from '@web/features/users/components/profile-load-state.js';
import { Avatar } from '@web/components/ui/avatar.js';
import { useUserDocument } from '@web/features/users/hooks/use-user-document.js';
import { isApiError } from '@web/lib/api-client.js';
import { useFocusAfterLoad } from '@web/lib/use-focus-after-load.js';
import { usePageTitle } from '../hooks/use-page-title.js';
import { countLabel, countOf } from '@shared/count-label.js';

/** "People who follow Ada" / "People Ada follows": the page's title and its lede. */
function listTitle(kind: FollowListKind, name: string): string {
  return kind === 'followers' ? `People who follow ${name}` : `People ${name} follows`;
}

function PersonRow({ person, viewer }: { person: Author; viewer: FollowViewer | null }) {
  const name = displayNameOf(person);
  return (
    <li className="person">
      <Avatar user={person} alt="" size="md" />
      <div className="person__names">
        <Link className="person__name" to={profilePath(person)} data-person-link>
          {name}
        </Link>
        {person.username ? <span className="person__username">@{person.username}</span> : null}
      </div>
      <div className="person__action">
        <FollowButton uid={person.uid} name={name} viewer={viewer} variant="row" />
      </div>
    </li>
  );
}

function PeopleSkeleton() {
  return (
    <div className="person-list" role="status" aria-label="Loading people">
      {[0, 1, 2].map((row) => (
        <div key={row} className="person">
          <span className="avatar avatar--md skeleton" />
          <div className="person__names">
            <span className="skeleton skeleton--line skeleton--medium" />
            <span className="skeleton skeleton--line skeleton--short" />
          </div>
        </div>
      ))}
    </div>
  );
}

function emptyText(kind: FollowListKind, name: string, isOwner: boolean): string {
  if (kind === 'followers') {
    return isOwner
      ? 'When people follow you, they will show up here.'
      : `When people follow ${name}, they will show up here.`;
  }
  return isOwner
    ? "You don't follow anyone yet. Visit a profile and press Follow to see their posts in your feed."
    : `${name} doesn't follow anyone yet.`;
}

function PeopleList({ user, kind }: { user: UserDocument; kind: FollowListKind }) {
  const auth = useAuth();
  const list = useFollowList(auth.user?.uid ?? null, user.uid, kind, {
    enabled: !auth.isLoading,
  });
  const listRef = useRef<HTMLUListElement>(null);
  const name = displayNameOf(user);
  const people = list.data?.pages.flatMap((page) => page.items) ?? [];
  const viewer = auth.isLoading ? null : auth.user;
  const focusFrom = useFocusAfterLoad(
    listRef,
    '[data-person-link]',
    people.length,
    list.isFetchingNextPage,
  );

  if (list.isPending) return <PeopleSkeleton />;
  if (list.isError && people.length === 0) {
    return (
      <LoadErrorPanel
        title="We couldn't load this list"
        headingLevel={2}
        error={list.error}
        onRetry={() => {
          void list.refetch();
        }}
      />
    );
  }
  if (people.length === 0) {
    return (
      <StatusPanel
        title={kind === 'followers' ? 'No followers yet' : 'Not following anyone yet'}
        icon={<EmberIcon />}
      >
        <p>{emptyText(kind, name, auth.user?.uid === user.uid)}</p>
      </StatusPanel>
    );
  }
  return (
    <>
      {auth.isLoading ? null : auth.user === null ? (
        <p className="notice">
          <Link to="/signin">Sign in</Link> to follow people.
        </p>
      ) : auth.user.suspended ? (
        <p className="notice">Your account is suspended, so you can&apos;t follow people.</p>
      ) : !auth.user.active ? (
        <p className="notice">
          Your account is awaiting activation by an administrator, so you can&apos;t follow people
          yet.
        </p>
      ) : null}
      <ul className="person-list" ref={listRef} aria-label={listTitle(kind, name)}>
        {people.map((person) => (
          <PersonRow key={person.uid} person={person} viewer={viewer} />
        ))}
      </ul>
      {list.isFetchNextPageError ? (
        <p className="alert alert--error list-more__error" role="alert">
          We couldn&apos;t load more people. {list.error.message}
        </p>
      ) : null}
      {list.hasNextPage ? (
        <div className="list-more">
          <LoadMoreButton
            label={list.isFetchNextPageError ? 'Try again' : 'Load more'}
            busy={list.isFetchingNextPage}
            onLoad={() => {
              focusFrom(people.length);
              void list.fetchNextPage();
            }}
          />
        </div>
      ) : null}
    </>
  );
}

function FollowListLayout({ user, kind }: { user: UserDocument; kind: FollowListKind }) {
  const name = displayNameOf(user);
  const { counts } = user;
  return (
    <div className="page page--narrow">
      <header className="page__header follow-list__header">
        <Link className="back-link" to={profilePath(user)}>
          <span aria-hidden="true">←</span> Back to {name}&apos;s profile
        </Link>
        <h1>{kind === 'followers' ? 'Followers' : 'Following'}</h1>
        <p className="lede">
          {listTitle(kind, name)}
          {user.username ? ` (@${user.username})` : ''}
        </p>
        <nav className="follow-list__switch" aria-label="Follow lists">
          <NavLink to={followListPath(user, 'followers')} end>
            {countOf(counts.followers, 'follower', 'followers')}
          </NavLink>
          <NavLink to={followListPath(user, 'following')} end>
            {countLabel(counts.following)} following
          </NavLink>
        </nav>
      </header>
      <PeopleList key={`${user.uid}:${kind}`} user={user} kind={kind} />
    </div>
  );
}

function FollowListByUsername({ username, kind }: { username: string; kind: FollowListKind }) {
  const location = useLocation();
  const query = useUserByUsername(username);
  // The counts in the header stay live with users/{uid}, as on the profile.
  const live = useUserDocument(query.data?.uid);
  const user = live.hasSnapshot ? live.data : query.data;
  usePageTitle(
    user
      ? `${kind === 'followers' ? 'Followers' : 'Following'} · ${displayNameOf(user)}`
      : isApiError(query.error, 'not_found')
        ? 'Profile not found'
        : kind === 'followers'
          ? 'Followers'
          : 'Following',
  );
  if (user) {
    // An old name redirects to the account's current address, as the profile does.
    if (user.username && user.username.toLowerCase() !== username) {
      return (
        <Navigate to={{ pathname: followListPath(user, kind), search: location.search }} replace />
      );
    }
    return <FollowListLayout user={user} kind={kind} />;
  }
  return <ProfileLoadState query={query} handle={username} />;
}

function FollowListPage({ kind }: { kind: FollowListKind }) {
  const { username = '' } = useParams();
  const location = useLocation();
  // /@ada/followers is /ada/followers, as /@ada is /ada (issue: notifications and search §5).
  const handle = username.startsWith('@');
  const lower = (handle ? username.slice(1) : username).toLowerCase();
  if (handle && (lower === '' || isReservedUsername(lower))) {
    return <FollowListNoSuchHandle handle={lower} />;
  }
  if (username !== lower) {
    return (
      <Navigate
        to={{ pathname: `/${encodeURIComponent(lower)}/${kind}`, search: location.search }}
        replace
      />
    );
  }
  return <FollowListByUsername key={lower} username={lower} kind={kind} />;
}

/** A /@{name}/followers whose name is a route word: no account can hold it. */
function FollowListNoSuchHandle({ handle }: { handle: string }) {
  usePageTitle('Profile not found');
  return <ProfileNotFound handle={handle || null} />;
}

/** issue §5: /{username}/followers, open to all. */
export function FollowersPage() {
  return <FollowListPage kind="followers" />;
}

/** issue §5: /{username}/following, open to all. */
export function FollowingPage() {
  return <FollowListPage kind="following" />;
}
