import { Suspense, useId, useState } from 'react';
import { AppLink } from '@web/components/ui/app-link.js';
import { postPath } from '@shared/paths.js';
import type { PostView } from '@shared/schemas/post.js';
import { useLikePost } from '../api/like-post.js';
import type { PostViewerState } from '../viewer.js';
import { preload } from '@web/lib/on-demand.js';
import { LikersDialog, loadLikersDialog } from './lazy-parts.js';
import { CommentIcon, HeartIcon } from './post-icons.js';
import { countOf } from '@shared/count-label.js';

interface PostActionsProps {
  post: PostView;
  viewer: PostViewerState;
  /** On the post's own page the comment count is plain text: the comments are right below. */
  linkComments: boolean;
}

/**
 * Like (a toggle with aria-pressed, optimistic), who liked, and the comment count. Signed-out readers
 * get "Sign in to like", a link to the sign-in page; inactive ones (ADR 0005) keep a focusable button
 * that says why when pressed.
 */
export function PostActions({ post, viewer, linkComments }: PostActionsProps) {
  const like = useLikePost(post.id);
  const [explain, setExplain] = useState(false);
  const [showLikers, setShowLikers] = useState(false);
  const noteId = useId();
  const allowed = !!viewer && viewer.active;
  const failed = like.isError ? like.error.message : null;

  const comments = countOf(post.commentCount, 'comment', 'comments');
  return (
    <div className="post__footer">
      <div className="post__actions">
        {viewer === null ? (
          <AppLink className="post__action post__like" to="/login">
            <HeartIcon filled={false} />
            Sign in to like
          </AppLink>
        ) : (
          <button
            type="button"
            className={`post__action post__like${post.liked ? ' post__like--on' : ''}`}
            aria-pressed={post.liked}
            aria-disabled={allowed ? undefined : true}
            aria-describedby={explain || failed ? noteId : undefined}
            onClick={() => {
              if (!allowed) {
                // Still loading the session: say nothing rather than something that may not be true.
                if (viewer !== undefined) setExplain(true);
                return;
              }
              like.mutate({ postId: post.id, liked: !post.liked });
            }}
          >
            <HeartIcon filled={post.liked} />
            Like
          </button>
        )}
        {post.likeCount > 0 ? (
          <button
            type="button"
            className="post__action post__count"
            aria-haspopup="dialog"
            onPointerEnter={() => {
              preload(loadLikersDialog);
            }}
            onFocus={() => {
              preload(loadLikersDialog);
            }}
            onClick={() => {
              setShowLikers(true);
            }}
          >
            {countOf(post.likeCount, 'like', 'likes')}
          </button>
        ) : (
          <span className="post__count post__count--none">0 likes</span>
        )}
        {linkComments ? (
          <AppLink className="post__action post__comments" to={postPath(post.id)}>
            <CommentIcon />
            {comments}
          </AppLink>
        ) : (
          <span className="post__count post__comments">
            <CommentIcon />
            {comments}
          </span>
        )}
      </div>
      <div id={noteId} className="post__note-region" role="status">
        {failed ? <p className="post__note post__note--error">{failed}</p> : null}
        {explain && !failed ? (
          <p className="post__note">
            {viewer?.suspended
              ? 'Your account is suspended, so you can’t like posts.'
              : 'Your account is awaiting activation, so you can’t like posts yet.'}
          </p>
        ) : null}
      </div>
      {showLikers ? (
        <Suspense fallback={null}>
          <LikersDialog
            postId={post.id}
            likeCount={post.likeCount}
            onClose={() => {
              setShowLikers(false);
            }}
          />
        </Suspense>
      ) : null}
    </div>
  );
}
