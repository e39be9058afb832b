import { memo, useRef, useState } from 'react';
import { Link } from 'react-router';
import type { Comment, PostView, Thread } from '@shared/schemas/post.js';
import { FormStatus } from '@web/components/ui/form-status.js';
import { LoadMoreButton } from '@web/components/ui/load-more-button.js';
import { RetryAlert } from '@web/components/ui/retry-alert.js';
import { useFirstLoadReveal } from '@web/lib/page-settled.js';
import { useFocusAfterLoad } from '@web/lib/use-focus-after-load.js';
import { useCreateComment } from '../api/create-comment.js';
import { useComments } from '../api/get-comments.js';
import { usePostedComments } from '../api/get-posted-comments.js';
import { pendingPosted } from '../comment-cache.js';
import type { CommentViewerState } from '../comment-rules.js';
import { useCommentsLiveRefresh } from '../hooks/use-comments-live-refresh.js';
import { CommentForm } from './comment-form.js';
import { CommentThread } from './comment-thread.js';
import { countOf } from '@shared/count-label.js';

interface CommentsSectionProps {
  /** The live post (topic posts/{id}): its count heads the section and its revision refreshes the list. */
  post: PostView;
  /** Who is reading: null when signed out, undefined while the session loads. */
  viewer: CommentViewerState;
}

function CommentsSkeleton() {
  return (
    <div className="comment-list" role="status" aria-label="Loading comments">
      {[0, 1].map((row) => (
        <div key={row} className="comment comment--skeleton">
          <span className="avatar avatar--md skeleton" />
          <div className="comment__main">
            <span className="skeleton skeleton--line skeleton--short" />
            <span className="skeleton skeleton--line" />
          </div>
        </div>
      ))}
    </div>
  );
}

function Composer({ postId, viewer }: { postId: string; viewer: CommentViewerState }) {
  const create = useCreateComment(postId, viewer?.uid ?? null);
  if (viewer === undefined) return null;
  if (viewer === null) {
    return (
      <p className="comments__prompt">
        <Link className="button button--primary button--small" to="/login">
          Sign in to comment
        </Link>{' '}
        New here? <Link to="/register">Create an account</Link> to join the conversation.
      </p>
    );
  }
  if (!viewer.active) {
    // decision 0005: inactive users read the conversation and are told why they cannot join it.
    return (
      <p className="comments__prompt">
        {viewer.suspended
          ? 'Your account is suspended, so you can’t comment.'
          : 'Your account is awaiting activation by an administrator, so you can’t comment yet.'}
      </p>
    );
  }
  return (
    <CommentForm
      label="Write a comment"
      submitLabel="Comment"
      busyLabel="Commenting…"
      savedMessage="Comment posted."
      draft={{ account: viewer.uid, target: `comment:${postId}` }}
      onSave={async (body) => {
        await create.mutateAsync({ postId, body });
      }}
    />
  );
}

/**
 * issue §3: the comments of a post, oldest first so the newest is last, a page at a time; replies
 * one level deep; the comment box at the end. Live through the post's commentsRevision.
 */
export const CommentsSection = memo(function CommentsSection({
  post,
  viewer,
}: CommentsSectionProps) {
  useCommentsLiveRefresh(post);
  const viewerUid = viewer?.uid ?? null;
  const threads = useComments(post.id, viewerUid, viewer !== undefined);
  const posted = usePostedComments(post.id, viewerUid);
  const heading = useRef<HTMLHeadingElement>(null);
  const listRef = useRef<HTMLUListElement>(null);
  const [announcement, setAnnouncement] = useState<{ text: string; seq: number } | null>(null);

  const items = threads.data?.pages.flatMap((page) => page.items) ?? [];
  // A post opened afresh renders its first comments with the page, the rest a thread per task after.
  const revealed = useFirstLoadReveal(items.length);
  const revealing = revealed < items.length;
  const complete = !threads.hasNextPage;
  const extra: Thread[] = pendingPosted(new Set(items.map((item) => item.id)), posted, null, {
    complete,
    loadedAt: threads.dataUpdatedAt,
  }).map((comment) => ({ ...comment, replies: [] }));
  // With every page loaded, the viewer's new comments end the same list: one keyed list, so a comment
  // moving from `extra` into the loaded pages (when the list is read again) keeps its element, with its
  // open menu and the focus on it. Otherwise they wait after "Load more comments", where they belong.
  const listed = complete ? [...items.slice(0, revealed), ...extra] : items.slice(0, revealed);
  const after = complete ? [] : extra;
  const focusFrom = useFocusAfterLoad(
    listRef,
    ':scope > li > [data-comment]',
    items.length,
    threads.isFetchingNextPage,
  );

  const onDeleted = (comment: Comment) => {
    const text = comment.parentId === null ? 'Comment deleted.' : 'Reply deleted.';
    // A new element each time, so a second deletion is announced as well.
    setAnnouncement((current) => ({ text, seq: (current?.seq ?? 0) + 1 }));
    // The comment and its menu are gone: focus goes to the section's heading, not the page top.
    heading.current?.focus();
  };
  const thread = (item: Thread) => (
    <CommentThread
      key={item.id}
      thread={item}
      postId={post.id}
      postAuthorUid={post.author.uid}
      viewer={viewer}
      posted={posted}
      threadsLoadedAt={threads.dataUpdatedAt}
      onDeleted={onDeleted}
    />
  );

  let body;
  if (viewer === undefined || threads.isPending) {
    body = <CommentsSkeleton />;
  } else if (threads.isError && items.length === 0) {
    body = (
      <RetryAlert
        onRetry={() => {
          void threads.refetch();
        }}
      >
        <p>We couldn&apos;t load the comments. {threads.error.message}</p>
      </RetryAlert>
    );
  } else if (items.length === 0 && extra.length === 0) {
    body = (
      <p className="comments__empty">
        No comments yet.{viewer?.active ? ' Start the conversation.' : ''}
      </p>
    );
  } else {
    body = (
      <>
        <ul className="comment-list" ref={listRef}>
          {listed.map(thread)}
        </ul>
        {threads.isFetchNextPageError ? (
          <p className="comment__error" role="alert">
            We couldn&apos;t load more comments. {threads.error.message}
          </p>
        ) : null}
        {threads.hasNextPage && !revealing ? (
          <LoadMoreButton
            className="button button--secondary comments__more"
            label="Load more comments"
            busyLabel="Loading comments…"
            busy={threads.isFetchingNextPage}
            onLoad={() => {
              focusFrom(items.length);
              void threads.fetchNextPage();
            }}
          />
        ) : null}
        {after.length > 0 ? <ul className="comment-list">{after.map(thread)}</ul> : null}
      </>
    );
  }

  const count = post.commentCount;
  return (
    <section className="comments" aria-labelledby="comments-heading">
      <h2 id="comments-heading" className="comments__title" ref={heading} tabIndex={-1}>
        {count === 0 ? 'Comments' : countOf(count, 'comment', 'comments')}
      </h2>
      {body}
      <FormStatus
        autoClear={{
          notice: announcement,
          clear: () => {
            setAnnouncement(null);
          },
        }}
      >
        {announcement ? <p key={announcement.seq}>{announcement.text}</p> : null}
      </FormStatus>
      <Composer postId={post.id} viewer={viewer} />
    </section>
  );
});
