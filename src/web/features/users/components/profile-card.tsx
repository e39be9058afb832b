import { useState, type ReactNode } from 'react';
import { Link } from 'react-router';
import { displayNameOf } from '@shared/display-name.js';
import { defaultImages, followListPath } from '@shared/paths.js';
import type { UserDocument } from '@shared/schemas/user.js';
import { websiteLink } from '../profile-links.js';
import { Avatar } from '@web/components/ui/avatar.js';
import { coverSizes, coverSources, srcSetOf } from '@web/lib/image-sources.js';
import { BioText } from './bio-text.js';
import { countLabel } from '@shared/count-label.js';
import { monthLabel } from '@web/lib/relative-time.js';

function joinedLabel(createdAt: string): string | null {
  return monthLabel(createdAt) || null;
}

/**
 * The cover is the profile's largest paint (LCP): fetched at once and first, at the width the screen needs.
 */
function Cover({
  src,
  small,
  alt,
}: {
  src: string | null;
  small: string | null;
  alt: string | null;
}) {
  const [broken, setBroken] = useState<string | null>(null);
  const wanted = src || defaultImages.cover;
  const srcSet = src && broken !== wanted ? srcSetOf(coverSources(src, small)) : undefined;
  return (
    <div className="profile__cover">
      <img
        src={broken === wanted ? defaultImages.cover : wanted}
        srcSet={srcSet}
        sizes={srcSet ? coverSizes : undefined}
        // Decorative unless its owner described it.
        alt={src && alt ? alt : ''}
        width={1500}
        height={500}
        fetchPriority="high"
        onError={() => {
          if (wanted !== defaultImages.cover) setBroken(wanted);
        }}
      />
    </div>
  );
}

function Count({ value, one, many }: { value: number; one: string; many: string }) {
  return (
    <>
      <strong className="profile__count-value">{countLabel(value)}</strong>{' '}
      {value === 1 ? one : many}
    </>
  );
}

/**
 * issue §5: post, follower and following counts, live with the user document. The lists live at
 * /{username}/followers and /following; an account without a username has no such address.
 */
function ProfileCounts({ user }: { user: UserDocument }) {
  const { counts } = user;
  const listLink = (list: 'followers' | 'following', content: ReactNode) =>
    user.username ? <Link to={followListPath(user, list)}>{content}</Link> : content;
  return (
    <ul className="profile__counts" aria-label="Activity">
      <li>
        <Count value={counts.posts} one="post" many="posts" />
      </li>
      <li>
        {listLink('followers', <Count value={counts.followers} one="follower" many="followers" />)}
      </li>
      <li>
        {listLink('following', <Count value={counts.following} one="following" many="following" />)}
      </li>
    </ul>
  );
}

interface ProfileCardProps {
  user: UserDocument;
  /** Actions shown beside the name: Edit profile for the owner, Follow for everyone else. */
  actions?: ReactNode;
}

/** Cover, avatar, name (spec §3 rule), @username, bio and join date of one profile. */
export function ProfileCard({ user, actions }: ProfileCardProps) {
  const name = displayNameOf(user);
  const joined = joinedLabel(user.createdAt);
  const website = websiteLink(user.website);
  return (
    <article className="profile" aria-labelledby="profile-name">
      <Cover src={user.cover} small={user.coverSmall} alt={user.coverAlt} />
      <div className="profile__body">
        <div className="profile__identity">
          <Avatar
            user={user}
            // The owner's own description when they wrote one (issue: profiles, alt text).
            alt={user.avatar && user.avatarAlt ? user.avatarAlt : `${name}'s avatar`}
            size="xl"
            className="profile__avatar"
          />
          <div className="profile__names">
            <h1 id="profile-name" className="profile__name">
              {name}
            </h1>
            {user.username ? <p className="profile__username">@{user.username}</p> : null}
          </div>
          {actions ? <div className="profile__actions">{actions}</div> : null}
        </div>
        {user.bio ? (
          <BioText className="profile__bio" bio={user.bio} mentions={user.bioMentions} />
        ) : null}
        <div className="profile__meta">
          {website ? (
            // rel=me lets other sites verify that this profile and the website belong together.
            <a href={website.href} rel="me nofollow noopener" target="_blank">
              {website.label}
              <span className="visually-hidden"> (opens in a new tab)</span>
            </a>
          ) : null}
          {joined ? (
            <span>
              Joined <time dateTime={user.createdAt}>{joined}</time>
            </span>
          ) : null}
        </div>
        <ProfileCounts user={user} />
      </div>
    </article>
  );
}
