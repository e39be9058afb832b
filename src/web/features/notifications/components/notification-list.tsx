import { useRef, type ReactNode } from 'react';
import type { InfiniteData, UseInfiniteQueryResult } from '@tanstack/react-query';
import type { NotificationGroup } from '@shared/schemas/notification.js';
import type { Page } from '@shared/schemas/post.js';
import { ListEnd } from '@web/components/ui/list-end.js';
import { LoadErrorPanel } from '@web/components/ui/load-error-panel.js';
import { useFocusAfterLoad } from '@web/lib/use-focus-after-load.js';
import { useNow } from '@web/lib/use-now.js';
import { NotificationItem, NotificationSkeleton } from './notification-item.js';

export type NotificationPages = InfiniteData<Page<NotificationGroup>>;

interface NotificationListProps {
  query: UseInfiniteQueryResult<NotificationPages>;
  /** What the list is, for screen readers ("All notifications"). */
  label: string;
  /** Shown when there are none at all. */
  empty: ReactNode;
}

/** The groups of a list, in order. */
export function notificationsOf(data: NotificationPages | undefined): NotificationGroup[] {
  return data?.pages.flatMap((page) => page.items) ?? [];
}

/** A keyset-paginated list of notifications, newest first, with Load more (issue: notifications §2). */
export function NotificationList({ query, label, empty }: NotificationListProps) {
  const now = useNow();
  const list = useRef<HTMLUListElement>(null);
  const groups = notificationsOf(query.data);
  const focusFrom = useFocusAfterLoad(
    list,
    '.notification__link',
    groups.length,
    query.isFetchingNextPage,
  );

  if (query.isPending) {
    return (
      <div aria-busy="true">
        <p className="visually-hidden" role="status">
          Loading notifications…
        </p>
        <ul className="notification-list">
          <NotificationSkeleton />
          <NotificationSkeleton />
          <NotificationSkeleton />
        </ul>
      </div>
    );
  }
  if (query.isError && groups.length === 0) {
    return (
      <LoadErrorPanel
        title="We couldn’t load your notifications"
        headingLevel={2}
        error={query.error}
        onRetry={() => {
          void query.refetch();
        }}
      />
    );
  }
  if (groups.length === 0) return empty;

  return (
    <>
      <ul className="notification-list" ref={list} aria-label={label}>
        {groups.map((group) => (
          <NotificationItem key={group.id} group={group} now={now} />
        ))}
      </ul>
      <ListEnd
        className="list-more"
        query={query}
        what="notifications"
        onLoadMore={() => {
          focusFrom(groups.length);
        }}
        done={<p className="notification-list__done">That’s everything.</p>}
      />
    </>
  );
}
