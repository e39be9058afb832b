import { useId, useState } from 'react';
import { Link } from 'react-router';
import type { UserDocument } from '@shared/schemas/user.js';
import { useRelationship } from '../api/get-relationship.js';
import { useSetFollow } from '../api/set-follow.js';

/** Who is looking: enough to know whether they may follow. */
export type FollowViewer = Pick<UserDocument, 'uid' | 'active'> & { suspended?: boolean };

interface FollowButtonProps {
  /** The person the button follows. */
  uid: string;
  /** Their name, so each button in a list says whom it follows. */
  name: string;
  viewer: FollowViewer | null;
  /**
   * `profile`: the profile header, which explains itself (sign-in link, inactive note, "Follows you").
   * `row`: a list row; the list explains signed-out and inactive states once, above its rows.
   */
  variant?: 'profile' | 'row';
}

/** issue §5: the Follow / Following toggle (aria-pressed), optimistic, with its loading and error states. */
export function FollowButton({ uid, name, viewer, variant = 'profile' }: FollowButtonProps) {
  const noteId = useId();
  // "Unfollow" on hover would greet the very press that just followed; it waits until the pointer
  // or focus leaves the button once.
  const [armed, setArmed] = useState(true);
  const viewerUid = viewer?.uid ?? null;
  const relationship = useRelationship(viewerUid, uid);
  const setFollow = useSetFollow(viewerUid ?? '', uid);
  const row = variant === 'row';
  const size = row ? ' button--small' : '';

  if (viewer === null) {
    if (row) return null;
    return (
      <Link className="button button--primary" to="/signin">
        Sign in to follow
      </Link>
    );
  }
  if (viewer.uid === uid) return null;

  if (!viewer.active || viewer.suspended) {
    // decision 0005: inactive users may look but not follow, and are told why (suspended ones too).
    return (
      <div className="follow">
        <button
          type="button"
          className={`button button--primary${size}`}
          disabled
          aria-describedby={row ? undefined : noteId}
        >
          Follow
          {row ? <span className="visually-hidden"> {name}</span> : null}
        </button>
        {row ? null : (
          <p className="follow__note" id={noteId}>
            {viewer.suspended
              ? 'You can’t follow people while your account is suspended.'
              : 'You can follow people once an administrator activates your account.'}
          </p>
        )}
      </div>
    );
  }

  if (relationship.isPending) {
    return (
      <span
        className={`follow__pending skeleton${row ? ' follow__pending--small' : ''}`}
        role="status"
        aria-label={`Checking whether you follow ${name}`}
      />
    );
  }
  if (relationship.isError) {
    return (
      <div className="follow">
        <button
          type="button"
          className={`button button--secondary${size}`}
          aria-describedby={noteId}
          onClick={() => {
            void relationship.refetch();
          }}
        >
          Try again
        </button>
        <p className="follow__error" id={noteId}>
          Couldn&apos;t check whether you follow {name}.
        </p>
      </div>
    );
  }

  const { following, followedBy } = relationship.data;
  return (
    <div className="follow">
      <button
        type="button"
        className={`button${following ? ' button--secondary' : ' button--primary'}${following && armed ? ' follow__toggle--armed' : ''} follow__toggle${size}`}
        aria-pressed={following}
        aria-describedby={setFollow.isError ? noteId : undefined}
        onClick={() => {
          setArmed(false);
          setFollow.reset();
          setFollow.mutate({ uid, following: !following });
        }}
        onMouseLeave={() => {
          setArmed(true);
        }}
        onBlur={() => {
          setArmed(true);
        }}
      >
        {following ? (
          <>
            {/* Hover and keyboard focus show what pressing does; the name stays "Following". */}
            <span className="follow__state">Following</span>
            <span className="follow__action" aria-hidden="true">
              Unfollow
            </span>
          </>
        ) : (
          'Follow'
        )}
        {row ? <span className="visually-hidden"> {name}</span> : null}
      </button>
      {followedBy && !row ? <span className="badge follow__badge">Follows you</span> : null}
      {setFollow.isError ? (
        <p className="follow__error" id={noteId} role="alert">
          {setFollow.variables.following
            ? `Couldn't follow ${name}.`
            : `Couldn't unfollow ${name}.`}{' '}
          {setFollow.error.message}
        </p>
      ) : null}
    </div>
  );
}
