import { memo, Suspense, useEffect, useRef, useState } from 'react';
import { AppLink } from '@web/components/ui/app-link.js';
import { displayNameOf } from '@shared/display-name.js';
import { postPath, profilePath } from '@shared/paths.js';
import type { PostView } from '@shared/schemas/post.js';
import { Avatar } from '@web/components/ui/avatar.js';
import { editDeleteActions, MoreMenu, type MenuAction } from '@web/components/ui/more-menu.js';
import { RemovalNotice } from '@web/components/ui/removal-notice.js';
import { RichText } from '@web/components/ui/rich-text.js';
import { ContentMenuSlot } from '@web/lib/content-menu.js';
import { preload } from '@web/lib/on-demand.js';
import { preloadWhenSettled } from '@web/lib/page-settled.js';
import { fullTimeLabel, relativeTimeLabel } from '@web/lib/relative-time.js';
import { useNow } from '@web/lib/use-now.js';
import { useSelfClearing } from '@web/lib/use-self-clearing.js';
import { canDeletePost, canEditPost, type PostViewerState } from '../viewer.js';
import {
  loadPostEditForm,
  DeletePostDialog,
  loadDeletePostDialog,
  loadVersionsDialog,
  PostEditForm,
  VersionsDialog,
} from './lazy-parts.js';
import { PostActions } from './post-actions.js';
import { PostImages } from './post-images.js';

interface PostCardProps {
  post: PostView;
  viewer: PostViewerState;
  /** `full` on the post's own page: larger text and images, comments below instead of a link. */
  variant?: 'feed' | 'full';
  /** After the viewer deleted the post (it has already left every list). */
  onDeleted?: (postId: string) => void;
  /** The list's first post with images: its first image is likely the page's largest paint. */
  leadImage?: boolean;
}

type Dialog = 'delete' | 'versions' | null;

/**
 * One post (issue: posts §1, §2, §4): who wrote it and when (a link to the post), "edited" with its
 * history, the text with links, mentions and hashtags, the images, Like, and the More menu. Memoised: a
 * list renders again when one post changes, more posts come or a first page reveals its next posts, and
 * only the cards whose post (or viewer) changed render with it; a cached post keeps its identity until a
 * change reaches it.
 */
export const PostCard = memo(function PostCard({
  post,
  viewer,
  variant = 'feed',
  onDeleted,
  leadImage = false,
}: PostCardProps) {
  const now = useNow();
  const [editing, setEditing] = useState(false);
  const [dialog, setDialog] = useState<Dialog>(null);
  const [notice, setNotice] = useState<string | null>(null);
  const more = useRef<HTMLButtonElement>(null);
  const name = displayNameOf(post.author);
  const profile = profilePath(post.author);
  const canEdit = canEditPost(viewer, post.author.uid);
  const canDelete = canDeletePost(viewer, post.author.uid);

  useEffect(() => {
    // Authors are likely to edit: have the form's code ready before they ask, and the deletion's
    // confirmation, so it opens at once from the menu.
    if (canEdit) preloadWhenSettled(loadPostEditForm);
    if (canDelete) preloadWhenSettled(loadDeletePostDialog);
  }, [canEdit, canDelete]);

  // Pointing at the fallback, to copy its link by hand, keeps it on screen.
  const noticeHold = useSelfClearing(notice, () => {
    setNotice(null);
  });

  const copyLink = () => {
    const url = new URL(postPath(post.id), window.location.origin).href;
    navigator.clipboard.writeText(url).then(
      () => {
        setNotice('Link copied.');
      },
      () => {
        setNotice(`Copy this link: ${url}`);
      },
    );
  };

  const actions: MenuAction[] = [
    { label: 'Copy link', onSelect: copyLink },
    ...editDeleteActions(
      canEdit && !editing
        ? () => {
            setEditing(true);
          }
        : null,
      canDelete
        ? () => {
            setDialog('delete');
          }
        : null,
    ),
  ];

  return (
    <article
      className={`post post--${variant}`}
      aria-label={`Post by ${name}`}
      data-post-id={post.id}
      tabIndex={-1}
    >
      <header className="post__header">
        {/* The name beside it is the link readers use; the picture repeats it for pointers only. */}
        <AppLink to={profile} className="post__avatar" tabIndex={-1} aria-hidden="true">
          <Avatar user={post.author} alt="" size={variant === 'full' ? 'lg' : 'md'} />
        </AppLink>
        <div className="post__byline">
          <AppLink to={profile} className="post__author">
            {name}
          </AppLink>
          {post.author.username ? (
            <span className="post__username">@{post.author.username}</span>
          ) : null}
          <span className="post__meta">
            <AppLink to={postPath(post.id)} className="post__time">
              <time dateTime={post.createdAt} title={fullTimeLabel(post.createdAt)}>
                {relativeTimeLabel(post.createdAt, now)}
              </time>
            </AppLink>
            {post.editedAt ? (
              <>
                <span aria-hidden="true"> · </span>
                <button
                  type="button"
                  className="post__edited"
                  aria-haspopup="dialog"
                  onPointerEnter={() => {
                    preload(loadVersionsDialog);
                  }}
                  onFocus={() => {
                    preload(loadVersionsDialog);
                  }}
                  onClick={() => {
                    setDialog('versions');
                  }}
                >
                  edited<span className="visually-hidden">, show earlier versions</span>
                </button>
              </>
            ) : null}
          </span>
        </div>
        <ContentMenuSlot
          target={{ kind: 'post', id: post.id, author: { uid: post.author.uid, name } }}
          returnFocus={() => more.current}
        >
          {(extra) => (
            <MoreMenu
              triggerRef={more}
              triggerClassName="post__more"
              menuClassName="post-menu"
              actions={[...actions, ...extra]}
            />
          )}
        </ContentMenuSlot>
      </header>

      {editing ? (
        <Suspense
          fallback={<RichText as="div" className="post__body" text={post.body} mentions hashtags />}
        >
          <PostEditForm
            post={post}
            onDone={() => {
              setEditing(false);
              more.current?.focus();
            }}
          />
        </Suspense>
      ) : (
        <RichText as="div" className="post__body" text={post.body} mentions hashtags />
      )}

      <PostImages
        images={post.images}
        authorName={name}
        large={variant === 'full'}
        priority={variant === 'full' || leadImage}
      />

      {post.removal ? (
        // Only its author is sent a removed post (issue: moderation §5): why, instead of its actions.
        <RemovalNotice thing="post" removal={post.removal} />
      ) : (
        <PostActions post={post} viewer={viewer} linkComments={variant === 'feed'} />
      )}

      <div role="status" className="post__notice-region" {...noticeHold}>
        {notice ? <p className="post__note">{notice}</p> : null}
      </div>

      {dialog === 'delete' ? (
        <Suspense fallback={null}>
          <DeletePostDialog
            postId={post.id}
            byModerator={viewer?.uid !== post.author.uid}
            returnFocus={() => more.current}
            onCancel={() => {
              setDialog(null);
            }}
            onDeleted={(postId) => {
              setDialog(null);
              onDeleted?.(postId);
            }}
          />
        </Suspense>
      ) : null}
      {dialog === 'versions' && post.editedAt ? (
        <Suspense fallback={null}>
          <VersionsDialog
            postId={post.id}
            body={post.body}
            editedAt={post.editedAt}
            onClose={() => {
              setDialog(null);
            }}
          />
        </Suspense>
      ) : null}
    </article>
  );
});
