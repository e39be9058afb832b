import { useCallback, useEffect, useRef, useState, type ReactNode } from 'react';
import { useQueryClient, type QueryKey, type UseInfiniteQueryResult } from '@tanstack/react-query';
import { leadImagePost } from '@shared/image-sources.js';
import { LoadErrorPanel } from '@web/components/ui/load-error-panel.js';
import { ListEnd } from '@web/components/ui/list-end.js';
import { useFirstLoadReveal } from '@web/lib/page-settled.js';
import { useFocusAfterLoad } from '@web/lib/use-focus-after-load.js';
import { useInfiniteScroll } from '../hooks/use-infinite-scroll.js';
import type { NewPosts } from '../hooks/use-new-posts.js';
import { pinFirstPage, postsOf, type PostPages } from '../post-cache.js';
import type { PostViewerState } from '../viewer.js';
import { PostCard } from './post-card.js';
import { PostSkeleton } from './post-skeleton.js';

interface PostListProps {
  queryKey: QueryKey;
  query: UseInfiniteQueryResult<PostPages>;
  viewer: PostViewerState;
  /** What the list is, for screen readers ("Everyone", "Posts by Ada"). */
  label: string;
  /** Shown when the list has no posts at all. */
  empty: ReactNode;
  /** Title of the error panel when the first page fails. */
  errorTitle: string;
  newPosts?: NewPosts;
}

const articleSelector = 'article.post';

/**
 * A live, keyset-paginated list of posts (issue: posts §6): the first page, then more as the reader
 * nears the end (IntersectionObserver) or presses Load more; new posts wait behind a button.
 */
export function PostList({
  queryKey,
  query,
  viewer,
  label,
  empty,
  errorTitle,
  newPosts,
}: PostListProps) {
  const queryClient = useQueryClient();
  const data = query.data;
  const posts = postsOf(data);
  // A first page opened afresh renders its posts right after the shell's first paint, one per task: the
  // shell and the page frame are the longest task of the feed's load on a phone, without any post in it.
  const revealed = useFirstLoadReveal(posts.length, 0);
  const revealing = revealed < posts.length;
  const list = useRef<HTMLDivElement>(null);
  const end = useRef<HTMLDivElement>(null);
  // Where focus goes once the list has re-rendered: a post (revealed, or next to a deleted one), or the list.
  const focusNext = useRef<string | null>(null);
  const [announcement, setAnnouncement] = useState('');
  const [, setFocusRequests] = useState(0);
  const requestFocus = useCallback((target: string) => {
    focusNext.current = target;
    setFocusRequests((count) => count + 1);
  }, []);
  const order = useRef<string[]>([]);
  // The same function on every render, so the memoised cards that did not change do not render again.
  const onDeleted = useCallback(
    (postId: string) => {
      const ids = order.current;
      const at = ids.indexOf(postId);
      requestFocus(ids[at + 1] ?? ids[at - 1] ?? 'list');
      setAnnouncement('Post deleted.');
    },
    [requestFocus],
  );

  useEffect(() => {
    // The first page keeps starting where the reader first saw it (post-cache cursorAbove).
    if (data && data.pageParams[0] === undefined && posts.length > 0) {
      queryClient.setQueryData<PostPages>(queryKey, (current) =>
        current ? pinFirstPage(current) : current,
      );
    }
  }, [data, posts.length, queryClient, queryKey]);

  useEffect(() => {
    order.current = posts.map((post) => post.id);
  });

  useEffect(() => {
    const focusId = focusNext.current;
    if (!focusId) return;
    focusNext.current = null;
    const target =
      focusId === 'list'
        ? list.current
        : list.current?.querySelector<HTMLElement>(`${articleSelector}[data-post-id="${focusId}"]`);
    target?.focus();
    target?.scrollIntoView({ block: 'start' });
  });

  const canLoadMore = query.hasNextPage && !query.isFetchingNextPage && !query.isFetchNextPageError;
  useInfiniteScroll(end, canLoadMore && posts.length > 0 && !revealing, () => {
    void query.fetchNextPage();
  });
  const focusAfterLoad = useFocusAfterLoad(
    list,
    articleSelector,
    posts.length,
    query.isFetchingNextPage,
  );

  if (query.isPending || (revealed === 0 && posts.length > 0)) {
    return (
      <div className="post-list" aria-busy="true" aria-label={label}>
        <p className="visually-hidden" role="status">
          Loading posts…
        </p>
        <PostSkeleton />
        <PostSkeleton />
        <PostSkeleton />
      </div>
    );
  }
  if (query.isError && posts.length === 0) {
    return (
      <LoadErrorPanel
        title={errorTitle}
        error={query.error}
        headingLevel={2}
        onRetry={() => {
          void query.refetch();
        }}
      />
    );
  }

  // The first picture near the top is likely the Largest Contentful Paint: it loads first, not lazily.
  const leadImage = leadImagePost(posts)?.id;

  const waiting = newPosts && (newPosts.count > 0 || newPosts.overflow);
  const waitingLabel = newPosts?.overflow
    ? `Show ${String(newPosts.count)}+ new posts`
    : newPosts?.count === 1
      ? 'Show 1 new post'
      : `Show ${String(newPosts?.count ?? 0)} new posts`;

  return (
    <div className="post-list-region">
      <p className="visually-hidden" role="status" aria-live="polite">
        {waiting ? waitingLabel.replace(/^Show /, '') + ' above.' : announcement}
      </p>
      {waiting ? (
        <div className="new-posts">
          <button
            type="button"
            className="button button--primary new-posts__button"
            onClick={() => {
              void newPosts.reveal().then((id) => {
                requestFocus(id ?? 'list');
                setAnnouncement(`${waitingLabel.replace(/^Show /, '')} shown.`);
              });
            }}
          >
            {waitingLabel}
          </button>
        </div>
      ) : null}
      {posts.length === 0 ? (
        empty
      ) : (
        <div className="post-list" ref={list} aria-label={label} role="region" tabIndex={-1}>
          {(revealing ? posts.slice(0, revealed) : posts).map((post) => (
            <PostCard
              key={post.id}
              post={post}
              viewer={viewer}
              onDeleted={onDeleted}
              leadImage={post.id === leadImage}
            />
          ))}
        </div>
      )}
      {revealing ? null : (
        <ListEnd
          ref={end}
          className="post-list__end"
          errorClassName="post-list__error"
          query={query}
          what="posts"
          onLoadMore={() => {
            focusAfterLoad(posts.length);
          }}
          done={
            posts.length > 0 ? <p className="post-list__done">You’ve reached the end.</p> : null
          }
        />
      )}
    </div>
  );
}
