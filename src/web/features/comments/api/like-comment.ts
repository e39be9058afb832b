import { useMutation, useQueryClient } from '@tanstack/react-query';
import { commentEndpoints } from '@shared/contract/endpoints/comments.js';
import type { LikeState } from '@shared/schemas/post.js';
import { callApi } from '@web/lib/api-client.js';
import {
  rollBackLike,
  updateCommentEverywhere,
  withLike,
  withLikeState,
} from '../comment-cache.js';
import { commentKeys } from '../comment-keys.js';

export interface LikeCommentVariables {
  commentId: string;
  /** true to like, false to take the like back. */
  liked: boolean;
}

/**
 * Likes a comment or takes the like back; both are idempotent and answer the new state. The screen shows
 * the new state at once, so the request is kept alive past a reload or a link away.
 */
export function likeComment({ commentId, liked }: LikeCommentVariables): Promise<LikeState> {
  return callApi(liked ? commentEndpoints.likeComment : commentEndpoints.unlikeComment, {
    params: { commentId },
    keepalive: true,
  });
}

/** issue §4: the Like toggle, shown at once everywhere the comment is, and undone if the server says no. */
export function useLikeComment(postId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: likeComment,
    // Presses on one comment reach the server in order, so the last press is the state that stays.
    scope: { id: `comment-like:${postId}` },
    onMutate: async ({ commentId, liked }) => {
      // A read already on its way would bring back the state from before the press.
      await queryClient.cancelQueries({ queryKey: commentKeys.ofPost(postId) });
      updateCommentEverywhere(queryClient, postId, commentId, (comment) =>
        withLike(comment, liked),
      );
    },
    onError: (_error, { commentId, liked }) => {
      updateCommentEverywhere(queryClient, postId, commentId, (comment) =>
        rollBackLike(comment, liked),
      );
    },
    onSuccess: (state, { commentId }) => {
      updateCommentEverywhere(queryClient, postId, commentId, (comment) =>
        withLikeState(comment, state),
      );
    },
  });
}
