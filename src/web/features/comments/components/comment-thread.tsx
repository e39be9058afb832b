import { useEffect, useRef, useState } from 'react';
import type { Comment, Thread } from '@shared/schemas/post.js';
import { LoadMoreButton } from '@web/components/ui/load-more-button.js';
import { useFocusAfterLoad } from '@web/lib/use-focus-after-load.js';
import { useCreateComment } from '../api/create-comment.js';
import { useReplies } from '../api/get-replies.js';
import { pendingPosted, type PostedComment } from '../comment-cache.js';
import { replyTarget, type CommentViewerState } from '../comment-rules.js';
import { CommentForm, hasCommentDraft, type MentionRequest } from './comment-form.js';
import { CommentItem } from './comment-item.js';

interface CommentThreadProps {
  thread: Thread;
  postId: string;
  postAuthorUid: string;
  viewer: CommentViewerState;
  /** The viewer's new comments on this post (their replies to this thread among them). */
  posted: PostedComment[];
  /** When the thread list was last read: the preview's replies are as fresh as that. */
  threadsLoadedAt: number;
  onDeleted: (comment: Comment) => void;
}

/**
 * A top-level comment with its replies (one level deep, oldest first): the first few come with the
 * thread, "Show more replies" loads the rest, and one reply box serves the whole thread.
 */
export function CommentThread({
  thread,
  postId,
  postAuthorUid,
  viewer,
  posted,
  threadsLoadedAt,
  onDeleted,
}: CommentThreadProps) {
  const viewerUid = viewer?.uid ?? null;
  const [expanded, setExpanded] = useState(false);
  // A reply kept as a draft on this device opens again with the thread (without taking focus).
  const [reply, setReply] = useState<MentionRequest | null>(() =>
    viewer?.active && hasCommentDraft(viewer.uid, `reply:${thread.id}`)
      ? { username: null, seq: 0 }
      : null,
  );
  const replies = useReplies(postId, thread.id, viewerUid, expanded);
  const createComment = useCreateComment(postId, viewerUid);
  const listRef = useRef<HTMLUListElement>(null);
  const threadRef = useRef<HTMLLIElement>(null);
  const opener = useRef<HTMLElement | null>(null);
  // The reply just posted, to be focused once it is on the page.
  const sentId = useRef<string | null>(null);
  // Numbers each request to reply, so that every one greets afresh, even one that comes while the
  // box is closing (sequence 0 is the box reopened for its draft).
  const requests = useRef(0);

  // Until the full list has come, the preview stands in for it.
  const full = expanded && replies.data !== undefined;
  const shown = full ? replies.data.pages.flatMap((page) => page.items) : thread.replies;
  const complete = full ? !replies.hasNextPage : thread.replyCount <= thread.replies.length;
  const extra = pendingPosted(new Set(shown.map((item) => item.id)), posted, thread.id, {
    complete,
    loadedAt: full ? replies.dataUpdatedAt : threadsLoadedAt,
  });
  // With every reply loaded, the viewer's new ones end the same list: one keyed list, so a reply moving
  // from `extra` into `shown` (when the thread is read again) keeps its element, and the focus on it.
  // Otherwise they wait after "Show more replies", where they belong in time.
  const listed = complete ? [...shown, ...extra] : shown;
  const after = complete ? [] : extra;
  const loadingMore = (expanded && replies.isPending) || replies.isFetchingNextPage;
  const focusFrom = useFocusAfterLoad(listRef, '[data-comment]', shown.length, loadingMore);

  const openReply = (to: Comment) => {
    if (reply === null && document.activeElement instanceof HTMLElement) {
      opener.current = document.activeElement;
    }
    requests.current += 1;
    setReply({ username: replyTarget(to, viewer).mention, seq: requests.current });
  };
  const closeReply = () => {
    setReply(null);
    // Back to the Reply button that opened the box, if it is still there.
    if (opener.current?.isConnected) opener.current.focus();
    opener.current = null;
  };

  useEffect(() => {
    if (sentId.current === null) return;
    // The box stayed open for a reply asked for while the last one was sent: the focus is in it.
    if (reply !== null) {
      sentId.current = null;
      return;
    }
    const posted = threadRef.current?.querySelector<HTMLElement>(
      `[data-comment="${CSS.escape(sentId.current)}"]`,
    );
    sentId.current = null;
    // The box closed under the keyboard: the reply itself is the natural place to continue from,
    // else the Reply button that opened the box.
    if (posted) posted.focus();
    else if (opener.current?.isConnected) opener.current.focus();
    opener.current = null;
  });

  const canReply = !!viewer && viewer.active;
  const itemFor = (comment: Comment) => (
    <CommentItem
      comment={comment}
      postId={postId}
      postAuthorUid={postAuthorUid}
      viewer={viewer}
      onReply={canReply ? openReply : undefined}
      onDeleted={onDeleted}
    />
  );
  const item = (comment: Comment) => <li key={comment.id}>{itemFor(comment)}</li>;

  return (
    <li className="comment-thread" ref={threadRef}>
      {itemFor(thread)}
      {shown.length > 0 || extra.length > 0 || !complete || reply ? (
        <div className="comment-thread__replies">
          {listed.length > 0 ? (
            <ul className="comment-list comment-list--replies" ref={listRef}>
              {listed.map(item)}
            </ul>
          ) : null}
          {!complete ? (
            <LoadMoreButton
              className="button button--ghost button--small comment-thread__more"
              label="Show more replies"
              busyLabel="Loading replies…"
              busy={loadingMore}
              onLoad={() => {
                focusFrom(shown.length);
                if (!expanded) setExpanded(true);
                else if (replies.data === undefined) void replies.refetch();
                else void replies.fetchNextPage();
              }}
            />
          ) : null}
          {replies.isError ? (
            <p className="comment__error" role="alert">
              We couldn&apos;t load more replies. {replies.error.message}
            </p>
          ) : null}
          {after.length > 0 ? (
            <ul className="comment-list comment-list--replies">{after.map(item)}</ul>
          ) : null}
          {reply ? (
            <CommentForm
              key={thread.id}
              label="Write a reply"
              submitLabel="Post reply"
              busyLabel="Posting reply…"
              mention={reply}
              rows={2}
              className="form comment-form comment-form--reply"
              onCancel={closeReply}
              draft={viewer ? { account: viewer.uid, target: `reply:${thread.id}` } : undefined}
              onSave={async (body) => {
                const sentFor = reply.seq;
                const created = await createComment.mutateAsync({
                  postId,
                  body,
                  parentId: thread.id,
                });
                sentId.current = created.id;
                // Sent, the box closes, unless someone else was asked to be answered meanwhile.
                setReply((current) => (current && current.seq !== sentFor ? current : null));
              }}
            />
          ) : null}
        </div>
      ) : null}
    </li>
  );
}
