import { Link } from 'react-router';
import { displayNameOf } from '@shared/display-name.js';
import { profilePath } from '@shared/paths.js';
import { Avatar } from '@web/components/ui/avatar.js';
import { LoadMoreButton } from '@web/components/ui/load-more-button.js';
import { ModalDialog } from '@web/components/ui/modal-dialog.js';
import { RetryAlert } from '@web/components/ui/retry-alert.js';
import { usePostLikers } from '../api/get-post-likers.js';

interface LikersDialogProps {
  postId: string;
  likeCount: number;
  onClose: () => void;
}

/** Who liked a post (issue: posts §4), newest first, a page at a time. */
export function LikersDialog({ postId, likeCount, onClose }: LikersDialogProps) {
  const query = usePostLikers(postId);
  const likers = query.data?.pages.flatMap((page) => page.items) ?? [];
  return (
    <ModalDialog title="Liked by" onClose={onClose} className="dialog--list">
      {query.isPending ? (
        <p className="dialog__status" role="status">
          <span className="spinner" aria-hidden="true" /> Loading who liked this post…
        </p>
      ) : query.isError && likers.length === 0 ? (
        <RetryAlert
          onRetry={() => {
            void query.refetch();
          }}
        >
          <p>{query.error.message}</p>
        </RetryAlert>
      ) : likers.length === 0 ? (
        <p className="dialog__status">
          {likeCount > 0 ? 'The people who liked this post are no longer here.' : 'No likes yet.'}
        </p>
      ) : (
        <ul className="person-list likers">
          {likers.map((person) => (
            <li key={person.uid} className="person">
              <Avatar user={person} alt="" size="md" />
              <span className="person__names">
                <Link to={profilePath(person)} className="person__name">
                  {displayNameOf(person)}
                </Link>
                {person.username ? (
                  <span className="person__username">@{person.username}</span>
                ) : null}
              </span>
            </li>
          ))}
        </ul>
      )}
      {query.hasNextPage ? (
        <div className="dialog__more">
          {query.isFetchNextPageError ? (
            <p className="field__error" role="alert">
              {query.error.message}
            </p>
          ) : null}
          <LoadMoreButton
            className="button button--secondary button--small"
            busy={query.isFetchingNextPage}
            onLoad={() => {
              void query.fetchNextPage();
            }}
          />
        </div>
      ) : null}
    </ModalDialog>
  );
}
