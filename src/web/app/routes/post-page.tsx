import { useCallback } from 'react';
import { Link, useNavigate, useParams } from 'react-router';
import { displayNameOf } from '@shared/display-name.js';
import { idPattern } from '@shared/ids.js';
import { CompassIcon, EmberIcon } from '@web/components/ui/icons.js';
import { LoadErrorPanel } from '@web/components/ui/load-error-panel.js';
import { StatusPanel } from '@web/components/ui/status-panel.js';
import { CommentsSection } from '@web/features/comments/components/comments-section.js';
import { usePost } from '@web/features/posts/api/get-post.js';
import { PostCard } from '@web/features/posts/components/post-card.js';
import { PostSkeleton } from '@web/features/posts/components/post-skeleton.js';
import { usePostDocument } from '@web/features/posts/hooks/use-post-document.js';
import { postTitle } from '@web/features/posts/post-excerpt.js';
import { isApiError } from '@web/lib/api-client.js';
import { usePageTitle } from '../hooks/use-page-title.js';
import { usePostViewer } from '../hooks/use-post-viewer.js';
import { withNotice } from '../layout/route-notice.js';

function PostNotFound() {
  return (
    <div className="page page--narrow">
      <StatusPanel
        title="Post not found"
        headingLevel={1}
        icon={<CompassIcon />}
        actions={
          <Link className="button button--primary" to="/feed">
            Back to the feed
          </Link>
        }
      >
        <p>This post doesn&apos;t exist or was removed.</p>
      </StatusPanel>
    </div>
  );
}

/** The post went while the reader was here (issue: posts §7): say so instead of vanishing. */
function PostDeleted() {
  return (
    <div className="page page--narrow">
      <StatusPanel
        title="This post was deleted"
        headingLevel={1}
        icon={<EmberIcon />}
        actions={
          <Link className="button button--primary" to="/feed">
            Back to the feed
          </Link>
        }
      >
        <p>Its author deleted it, or the moderators removed it, with its comments and likes.</p>
      </StatusPanel>
    </div>
  );
}

/** spec §2, issue: posts §2: /post/{postId}, open to all, live. */
export function PostPage() {
  const { postId = '' } = useParams();
  // Anything but an id names no post, and is not worth a request.
  const valid = idPattern.test(postId);
  const viewer = usePostViewer();
  const navigate = useNavigate();
  const query = usePost(postId, valid);
  const live = usePostDocument(valid ? postId : null);
  const post = query.data;
  // The same function on every render: the memoised card and comments do not render again for a snapshot
  // that changed nothing they show.
  const onDeleted = useCallback(() => {
    void navigate('/feed', { replace: true, state: withNotice('The post was deleted.') });
  }, [navigate]);
  // The topic is the same for everyone, so a post the moderators removed reads as gone there; its author
  // alone still reads it over HTTP, with the reason (ADR 0021), and is told by a notification when it
  // happens while they look.
  const deleted = live.hasSnapshot && live.data === null && !query.isPending && !post?.removal;
  const notFound = !valid || isApiError(query.error, 'not_found');
  usePageTitle(
    deleted
      ? 'Post deleted'
      : post
        ? postTitle(displayNameOf(post.author), post.body)
        : notFound
          ? 'Post not found'
          : 'Post',
  );

  if (notFound && !post) return <PostNotFound />;
  if (deleted) return <PostDeleted />;
  if (post) {
    return (
      <div className="page page--narrow post-page">
        <h1 className="visually-hidden">Post by {displayNameOf(post.author)}</h1>
        <PostCard post={post} viewer={viewer} variant="full" onDeleted={onDeleted} />
        <CommentsSection post={post} viewer={viewer} />
      </div>
    );
  }
  if (query.isError) {
    return (
      <div className="page page--narrow">
        <LoadErrorPanel
          title="We couldn’t load this post"
          error={query.error}
          onRetry={() => {
            void query.refetch();
          }}
        />
      </div>
    );
  }
  return (
    <div className="page page--narrow post-page" aria-busy="true">
      <h1 className="visually-hidden">Loading the post</h1>
      <PostSkeleton />
    </div>
  );
}
