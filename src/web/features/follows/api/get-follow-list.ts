import {
  infiniteQueryOptions,
  useInfiniteQuery,
  useQueryClient,
  type QueryClient,
} from '@tanstack/react-query';
import type { FollowListItem } from '@shared/schemas/follow.js';
import type { Page } from '@shared/schemas/post.js';
import { apiGet } from '@web/lib/api-client.js';
import { followKeys, type FollowListKind } from '../follow-keys.js';

/**
 * GET /api/users/:uid/followers or /following: one page, newest follow first, each person with how the
 * viewer relates to them.
 */
export function getFollowList(
  uid: string,
  kind: FollowListKind,
  cursor: string | null,
  signal?: AbortSignal,
): Promise<Page<FollowListItem>> {
  const query = cursor ? `?cursor=${encodeURIComponent(cursor)}` : '';
  return apiGet<Page<FollowListItem>>(
    `/api/users/${encodeURIComponent(uid)}/${kind}${query}`,
    signal,
  );
}

/**
 * The rows' relationships go into the cache their Follow buttons read, so a page of people costs one
 * request, not one per row.
 */
export function getFollowListQueryOptions(
  queryClient: QueryClient,
  viewerUid: string | null,
  uid: string,
  kind: FollowListKind,
) {
  return infiniteQueryOptions({
    queryKey: followKeys.list(uid, kind, viewerUid),
    queryFn: async ({ pageParam, signal }) => {
      const page = await getFollowList(uid, kind, pageParam, signal);
      if (viewerUid) {
        for (const person of page.items) {
          if (person.relationship) {
            queryClient.setQueryData(
              followKeys.relationship(viewerUid, person.uid),
              person.relationship,
            );
          }
        }
      }
      return page;
    },
    initialPageParam: null as string | null,
    getNextPageParam: (last) => last.nextCursor,
  });
}

/** Waits while the session is still being read (`enabled: false`), so a signed-in page is not read twice. */
export function useFollowList(
  viewerUid: string | null,
  uid: string,
  kind: FollowListKind,
  options: { enabled?: boolean } = {},
) {
  const queryClient = useQueryClient();
  return useInfiniteQuery({
    ...getFollowListQueryOptions(queryClient, viewerUid, uid, kind),
    enabled: options.enabled ?? true,
  });
}
