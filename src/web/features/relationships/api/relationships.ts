import {
  infiniteQueryOptions,
  useInfiniteQuery,
  useMutation,
  useQueryClient,
} from '@tanstack/react-query';
import { relationshipEndpoints } from '@shared/contract/endpoints/relationships.js';
import type { Page } from '@shared/schemas/post.js';
import type {
  FullRelationship,
  MuteDuration,
  RelationshipListItem,
} from '@shared/schemas/relationship.js';
import { callApi } from '@web/lib/api-client.js';
import { refreshAfterRelationshipChange } from '../refresh.js';
import { relationshipKeys, type RelationshipListKind } from '../relationship-keys.js';

/** A page of the people the viewer blocks or mutes, newest first. */
export function getRelationshipList(
  kind: RelationshipListKind,
  cursor: string | null,
  signal?: AbortSignal,
): Promise<Page<RelationshipListItem>> {
  return callApi(
    kind === 'blocks' ? relationshipEndpoints.listMyBlocks : relationshipEndpoints.listMyMutes,
    { query: { cursor: cursor ?? undefined }, signal },
  );
}

const firstPage: string | null = null;

export function getRelationshipListQueryOptions(viewerUid: string, kind: RelationshipListKind) {
  return infiniteQueryOptions({
    queryKey: relationshipKeys.list(viewerUid, kind),
    queryFn: ({ pageParam, signal }) => getRelationshipList(kind, pageParam, signal),
    initialPageParam: firstPage,
    getNextPageParam: (last) => last.nextCursor,
  });
}

export function useRelationshipList(viewerUid: string, kind: RelationshipListKind) {
  return useInfiniteQuery(getRelationshipListQueryOptions(viewerUid, kind));
}

/** One change: block or unblock, mute (for a time) or unmute. */
export type RelationshipChange =
  | { action: 'block' | 'unblock' | 'unmute'; uid: string }
  | { action: 'mute'; uid: string; duration: MuteDuration };

export function changeRelationship(change: RelationshipChange): Promise<FullRelationship> {
  const params = { uid: change.uid };
  switch (change.action) {
    case 'block':
      return callApi(relationshipEndpoints.blockUser, { params });
    case 'unblock':
      return callApi(relationshipEndpoints.unblockUser, { params });
    case 'mute':
      return callApi(relationshipEndpoints.muteUser, {
        params,
        body: { duration: change.duration },
      });
    case 'unmute':
      return callApi(relationshipEndpoints.unmuteUser, { params });
  }
}

/** Blocks, unblocks, mutes or unmutes, then refreshes what the viewer sees. */
export function useChangeRelationship(viewerUid: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: changeRelationship,
    onSuccess: (relationship, change) => {
      queryClient.setQueryData(relationshipKeys.state(viewerUid, change.uid), relationship);
      void refreshAfterRelationshipChange(queryClient);
    },
  });
}
