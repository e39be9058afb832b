import { Fragment, useRef, type ReactNode } from 'react';
import type { PostView } from '@shared/schemas/post.js';
import { LoadErrorPanel } from '@web/components/ui/load-error-panel.js';
import { ListEnd } from '@web/components/ui/list-end.js';
import { StatusPanel } from '@web/components/ui/status-panel.js';
import { CompassIcon } from '@web/components/ui/icons.js';
import { isApiError } from '@web/lib/api-client.js';
import { useFocusAfterLoad } from '@web/lib/use-focus-after-load.js';
import { usePostSearch } from '../api/search-posts.js';

interface PostResultsProps {
  q: string;
  /** One post as the app shows posts everywhere (the post card). */
  renderPost: (post: PostView) => ReactNode;
  /** The shape of a post while the first page loads. */
  skeleton: ReactNode;
}

/** "20 posts", "1 post", "20+ posts" (more pages wait behind Load more). */
export function postCountLabel(count: number, more: boolean): string {
  const word = count === 1 && !more ? 'post' : 'posts';
  return `${String(count)}${more ? '+' : ''} ${word}`;
}

/**
 * Posts matching `q`, most relevant first, with Load more (the cursor is the ranking position the
 * server gave). A refused search (400) says why next to the field's results.
 */
export function PostResults({ q, renderPost, skeleton }: PostResultsProps) {
  const query = usePostSearch(q);
  const list = useRef<HTMLDivElement>(null);
  const posts = query.data?.pages.flatMap((page) => page.items) ?? [];
  const focusFrom = useFocusAfterLoad(list, 'article.post', posts.length, query.isFetchingNextPage);

  if (query.isPending) {
    return (
      <div className="search-results" aria-busy="true">
        <p className="visually-hidden" role="status">
          Searching posts…
        </p>
        {skeleton}
      </div>
    );
  }
  if (query.isError && posts.length === 0) {
    if (isApiError(query.error) && query.error.status === 400) {
      return (
        <p className="alert alert--error" role="alert">
          {query.error.fields.q ?? query.error.message}
        </p>
      );
    }
    return (
      <LoadErrorPanel
        title="We couldn’t search posts"
        headingLevel={2}
        error={query.error}
        onRetry={() => {
          void query.refetch();
        }}
      />
    );
  }
  if (posts.length === 0) {
    return (
      <>
        <p className="visually-hidden" role="status">
          No posts found.
        </p>
        <StatusPanel title="No posts found" icon={<CompassIcon />}>
          <p>
            No post has all of these words. Try fewer or different words, or check the spelling of a
            username after from:.
          </p>
        </StatusPanel>
      </>
    );
  }

  return (
    <div className="search-results">
      <p className="visually-hidden" role="status" aria-live="polite">
        {`${postCountLabel(posts.length, query.hasNextPage)} found.`}
      </p>
      <div className="post-list" ref={list} role="region" aria-label={`Posts matching ${q}`}>
        {posts.map((post) => (
          <Fragment key={post.id}>{renderPost(post)}</Fragment>
        ))}
      </div>
      <ListEnd
        className="post-list__end"
        errorClassName="post-list__error"
        query={query}
        what="posts"
        onLoadMore={() => {
          focusFrom(posts.length);
        }}
        done={<p className="post-list__done">That’s every match.</p>}
      />
    </div>
  );
}
