import { useMutation, useQueryClient, type QueryClient } from '@tanstack/react-query';
import { followEndpoints } from '@shared/contract/endpoints/follows.js';
import type { FollowState, Relationship } from '@shared/schemas/follow.js';
import { callApi } from '@web/lib/api-client.js';
import { feedKeys } from '@web/lib/feed-keys.js';
import { followKeys } from '../follow-keys.js';
import { rollBackFollowing, withFollowing } from '../follow-state.js';

export interface SetFollowInput {
  uid: string;
  /** true to follow, false to stop following. */
  following: boolean;
}

/** Follows or unfollows `uid`; both are idempotent and answer the new state. */
export function setFollow({ uid, following }: SetFollowInput): Promise<FollowState> {
  return callApi(following ? followEndpoints.followUser : followEndpoints.unfollowUser, {
    params: { uid },
  });
}

/**
 * After `viewerUid` followed or unfollowed `uid`: both people's lists are read again when next shown,
 * not under the reader's eyes, and so is the viewer's Following feed, whose posts changed. The feed
 * refetches in place: its first page stays anchored where the reader was (post-cache cursorAbove), so
 * older posts of the person followed join the pages already read and newer ones wait behind
 * "Show N new posts"; posts of someone unfollowed leave.
 */
export function refreshAfterFollow(queryClient: QueryClient, viewerUid: string, uid: string): void {
  for (const who of [viewerUid, uid]) {
    void queryClient.invalidateQueries({ queryKey: followKeys.lists(who), refetchType: 'none' });
  }
  void queryClient.invalidateQueries({ queryKey: feedKeys.feed('following'), exact: true });
}

/** Follow or unfollow `uid` as `viewerUid`, shown at once and rolled back if the server says no. */
export function useSetFollow(viewerUid: string, uid: string) {
  const queryClient = useQueryClient();
  const key = followKeys.relationship(viewerUid, uid);
  return useMutation({
    mutationFn: setFollow,
    // Presses on one button reach the server in order, so the last press is the state that stays.
    scope: { id: `follow:${uid}` },
    onMutate: async ({ following }) => {
      await queryClient.cancelQueries({ queryKey: key });
      queryClient.setQueryData<Relationship>(key, (current) => withFollowing(current, following));
    },
    onError: (_error, { following }) => {
      queryClient.setQueryData<Relationship>(key, (current) =>
        rollBackFollowing(current, following),
      );
    },
    onSuccess: () => {
      refreshAfterFollow(queryClient, viewerUid, uid);
    },
  });
}
