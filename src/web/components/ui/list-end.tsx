import type { ReactNode, Ref } from 'react';
import { LoadMoreButton } from './load-more-button.js';
import { RetryAlert } from './retry-alert.js';

/** The paging state of an infinite query that the end of its list shows. */
interface PagedQuery {
  isFetchNextPageError: boolean;
  error: Error | null;
  hasNextPage: boolean;
  isFetchingNextPage: boolean;
  fetchNextPage: () => Promise<unknown>;
}

interface ListEndProps {
  query: PagedQuery;
  /** What the list holds, plural: "We couldn’t load more {what}." */
  what: string;
  /** Called before the next page is asked for, e.g. to move focus to the first new item once it is in. */
  onLoadMore?: () => void;
  /** Shown when there is nothing more to load (null for nothing). */
  done: ReactNode;
  className?: string;
  errorClassName?: string;
  /** The end's element: an infinite scroll watches it come into view. */
  ref?: Ref<HTMLDivElement>;
}

/**
 * The end of a paginated list: a retry when the next page failed, "Load more" while there is one, and
 * `done` after the last.
 */
export function ListEnd({
  query,
  what,
  onLoadMore,
  done,
  className,
  errorClassName,
  ref,
}: ListEndProps) {
  let content: ReactNode;
  if (query.isFetchNextPageError) {
    content = (
      <RetryAlert
        className={errorClassName}
        onRetry={() => {
          void query.fetchNextPage();
        }}
      >
        <p>
          We couldn’t load more {what}. {query.error?.message}
        </p>
      </RetryAlert>
    );
  } else if (query.hasNextPage) {
    content = (
      <LoadMoreButton
        busy={query.isFetchingNextPage}
        onLoad={() => {
          onLoadMore?.();
          void query.fetchNextPage();
        }}
      />
    );
  } else {
    content = done;
  }
  return (
    <div ref={ref} className={className}>
      {content}
    </div>
  );
}
