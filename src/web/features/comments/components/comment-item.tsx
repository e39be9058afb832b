import { useEffect, useRef, useState } from 'react';
import { flushSync } from 'react-dom';
import { AppLink } from '@web/components/ui/app-link.js';
import { displayNameOf } from '@shared/display-name.js';
import { profilePath } from '@shared/paths.js';
import type { Comment } from '@shared/schemas/post.js';
import { Avatar } from '@web/components/ui/avatar.js';
import { ConfirmDialog } from '@web/components/ui/confirm-dialog.js';
import { editDeleteActions, MoreMenu } from '@web/components/ui/more-menu.js';
import { RemovalNotice } from '@web/components/ui/removal-notice.js';
import { RichText } from '@web/components/ui/rich-text.js';
import { ContentMenuSlot } from '@web/lib/content-menu.js';
import { isApiError } from '@web/lib/api-client.js';
import { fullTimeLabel, relativeTimeLabel } from '@web/lib/relative-time.js';
import { useNow } from '@web/lib/use-now.js';
import { useDeleteComment } from '../api/delete-comment.js';
import { useLikeComment } from '../api/like-comment.js';
import { useUpdateComment } from '../api/update-comment.js';
import { canDeleteComment, canEditComment, type CommentViewerState } from '../comment-rules.js';
import { CommentForm } from './comment-form.js';
import { countOf } from '@shared/count-label.js';

interface CommentItemProps {
  comment: Comment;
  postId: string;
  postAuthorUid: string;
  viewer: CommentViewerState;
  /** Opens the thread's reply box; absent where the viewer cannot reply. */
  onReply?: (comment: Comment) => void;
  /** After the comment is gone, so the list can say so and place focus. */
  onDeleted: (comment: Comment) => void;
}

function likeLabel(count: number): string {
  return countOf(count, 'like', 'likes');
}

function HeartIcon() {
  return (
    <svg
      className="comment__heart"
      viewBox="0 0 24 24"
      width="16"
      height="16"
      aria-hidden="true"
      focusable="false"
    >
      <path
        d="M12 20.5s-7.5-4.6-7.5-10.2A4.3 4.3 0 0 1 12 7.6a4.3 4.3 0 0 1 7.5 2.7c0 5.6-7.5 10.2-7.5 10.2Z"
        fill="none"
        stroke="currentColor"
        strokeWidth="2"
        strokeLinejoin="round"
      />
    </svg>
  );
}

/**
 * One comment or reply (issue §3, §4): author, time, "edited", the text with its links, Like, Reply,
 * and a More menu with Edit (own comments) and Delete (own, the post's author, administrators).
 */
export function CommentItem({
  comment,
  postId,
  postAuthorUid,
  viewer,
  onReply,
  onDeleted,
}: CommentItemProps) {
  const [editing, setEditing] = useState(false);
  const [confirming, setConfirming] = useState(false);
  const [deleteError, setDeleteError] = useState<string | null>(null);
  const now = useNow();
  const moreButton = useRef<HTMLButtonElement>(null);
  const refocusMore = useRef(false);
  const like = useLikeComment(postId);
  const update = useUpdateComment(postId);
  const remove = useDeleteComment(postId);

  const name = displayNameOf(comment.author);
  const isReply = comment.parentId !== null;
  const canEdit = canEditComment(viewer, comment);
  const canDelete = canDeleteComment(viewer, comment, postAuthorUid);
  // A removed comment (only its author is sent it) takes no likes or replies.
  const canAct = !!viewer && viewer.active && !comment.removal;

  // Back to the More button once an edit is over, not to the top of the page.
  useEffect(() => {
    if (editing || !refocusMore.current) return;
    refocusMore.current = false;
    moreButton.current?.focus();
  }, [editing]);

  const closeDialog = () => {
    setConfirming(false);
    setDeleteError(null);
  };

  const confirmDelete = async () => {
    setDeleteError(null);
    try {
      await remove.mutateAsync(comment.id);
    } catch (error) {
      // Someone else (the post's author, an administrator) deleted it first: the outcome is the same.
      if (!isApiError(error, 'not_found')) {
        setDeleteError(error instanceof Error ? error.message : 'The comment was not deleted.');
        return;
      }
    }
    // Close the dialog now: closing it later (as the comment leaves) would send focus back to the
    // More button after the list has placed it.
    flushSync(() => {
      setConfirming(false);
    });
    onDeleted(comment);
  };

  const actions = editDeleteActions(
    canEdit
      ? () => {
          setEditing(true);
        }
      : null,
    canDelete
      ? () => {
          setConfirming(true);
        }
      : null,
  );

  const time = relativeTimeLabel(comment.createdAt, now);
  return (
    <article
      className={`comment${isReply ? ' comment--reply' : ''}`}
      aria-label={`${isReply ? 'Reply' : 'Comment'} by ${name}`}
      tabIndex={-1}
      data-comment={comment.id}
    >
      <Avatar
        user={comment.author}
        alt=""
        size={isReply ? 'sm' : 'md'}
        className="comment__avatar"
      />
      <div className="comment__main">
        <header className="comment__header">
          <AppLink className="comment__author" to={profilePath(comment.author)}>
            {name}
          </AppLink>
          <span className="comment__meta">
            {time ? (
              <time dateTime={comment.createdAt} title={fullTimeLabel(comment.createdAt)}>
                {time}
              </time>
            ) : null}
            {comment.editedAt ? (
              <span className="comment__edited" title={`Edited ${fullTimeLabel(comment.editedAt)}`}>
                edited
              </span>
            ) : null}
          </span>
        </header>

        {editing ? (
          <CommentForm
            label="Edit comment"
            submitLabel="Save"
            busyLabel="Saving…"
            defaultBody={comment.body}
            focusOnMount
            className="form comment-form comment-form--edit"
            onCancel={() => {
              refocusMore.current = true;
              setEditing(false);
            }}
            onSave={async (body) => {
              await update.mutateAsync({ commentId: comment.id, body });
              refocusMore.current = true;
              setEditing(false);
            }}
          />
        ) : (
          <RichText text={comment.body} className="comment__body" mentions hashtags />
        )}

        {comment.removal ? (
          // Only its author is sent a removed comment (issue: moderation §5): why, above its menu.
          <RemovalNotice thing="comment" removal={comment.removal} />
        ) : null}
        <div className="comment__actions">
          {viewer === null ? (
            // Signed out: the same places say what signing in would let the reader do.
            <AppLink className="comment__action" to="/login">
              <HeartIcon />
              Sign in to like
            </AppLink>
          ) : null}
          {canAct ? (
            <button
              type="button"
              className="comment__action"
              aria-pressed={comment.liked}
              onClick={() => {
                like.mutate({ commentId: comment.id, liked: !comment.liked });
              }}
            >
              <HeartIcon />
              Like
            </button>
          ) : null}
          {comment.likeCount > 0 ? (
            <span className="comment__likes">{likeLabel(comment.likeCount)}</span>
          ) : null}
          {viewer === null ? (
            <AppLink className="comment__action" to="/login">
              Sign in to reply
            </AppLink>
          ) : null}
          {canAct && onReply ? (
            <button
              type="button"
              className="comment__action"
              onClick={() => {
                onReply(comment);
              }}
            >
              Reply
            </button>
          ) : null}
          <ContentMenuSlot
            target={{ kind: 'comment', id: comment.id, author: { uid: comment.author.uid, name } }}
            returnFocus={() => moreButton.current}
          >
            {(extra) =>
              actions.length + extra.length > 0 ? (
                <MoreMenu
                  triggerRef={moreButton}
                  triggerClassName="comment__action comment__more"
                  actions={[...actions, ...extra]}
                />
              ) : null
            }
          </ContentMenuSlot>
        </div>
        {like.isError ? (
          <p className="comment__error" role="alert">
            {like.variables.liked ? 'Your like was not saved.' : 'Your like was not removed.'}{' '}
            {like.error.message}
          </p>
        ) : null}
      </div>
      {confirming ? (
        <ConfirmDialog
          title="Delete this comment?"
          confirmLabel="Delete"
          busyLabel="Deleting…"
          busy={remove.isPending}
          error={deleteError}
          returnFocus={() => moreButton.current}
          onConfirm={() => {
            void confirmDelete();
          }}
          onClose={closeDialog}
        >
          <p>
            {!isReply && comment.replyCount > 0
              ? `Its ${countOf(comment.replyCount, 'reply', 'replies')} will be deleted too. `
              : ''}
            This can&apos;t be undone.
          </p>
        </ConfirmDialog>
      ) : null}
    </article>
  );
}
