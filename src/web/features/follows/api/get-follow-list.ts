import {
  infiniteQueryOptions,
  useInfiniteQuery,
  useQueryClient,
  type QueryClient,
} from '@tanstack/react-query';
import { followEndpoints } from '@shared/contract/endpoints/follows.js';
import type { FollowListItem } from '@shared/schemas/follow.js';
import type { Page } from '@shared/schemas/post.js';
import { callApi } from '@web/lib/api-client.js';
import { followKeys, type FollowListKind } from '../follow-keys.js';

/** The first page is read without a cursor. */
const firstPage: string | null = null;

/**
 * One page of a user's followers or of the people they follow, newest follow first, each person with
 * how the viewer relates to them.
 */
export function getFollowList(
  uid: string,
  kind: FollowListKind,
  cursor: string | null,
  signal?: AbortSignal,
): Promise<Page<FollowListItem>> {
  return callApi(
    kind === 'followers' ? followEndpoints.getFollowers : followEndpoints.getFollowing,
    {
      params: { uid },
      query: { cursor: cursor ?? undefined },
      signal,
    },
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
    initialPageParam: firstPage,
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
