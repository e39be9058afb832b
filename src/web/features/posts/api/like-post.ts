import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { LikeState } from '@shared/schemas/post.js';
import { postEndpoints } from '@shared/contract/endpoints/posts.js';
import { callApi } from '@web/lib/api-client.js';
import { findCachedPost, setCachedLike } from '../post-cache.js';

export interface LikePostInput {
  postId: string;
  liked: boolean;
}

/**
 * PUT (like) or DELETE (unlike) /api/posts/:postId/like; both are idempotent and answer the new state. The
 * screen shows the new state at once, so the request is kept alive past a reload or a link away.
 */
export function likePost({ postId, liked }: LikePostInput): Promise<LikeState> {
  return callApi(liked ? postEndpoints.likePost : postEndpoints.unlikePost, {
    params: { postId },
    keepalive: true,
  });
}

/**
 * Issue: likes are optimistic. Every cached copy changes at once and goes back if the server says no.
 * The likes of one post run one after another, so quick toggles end in the state last asked for.
 */
export function useLikePost(postId: string) {
  const queryClient = useQueryClient();
  const scope = `like-${postId}`;
  // While a later toggle waits, an earlier answer would undo its optimistic state; only the last one speaks.
  const isLast = () =>
    queryClient.isMutating({
      predicate: (mutation) => mutation.options.scope?.id === scope,
    }) <= 1;
  return useMutation({
    mutationFn: likePost,
    scope: { id: scope },
    onMutate: ({ liked }) => {
      const before = findCachedPost(queryClient, postId);
      if (!before) return { before: null };
      const previous: LikeState = { liked: before.liked, likeCount: before.likeCount };
      if (before.liked !== liked) {
        const likeCount = Math.max(0, before.likeCount + (liked ? 1 : -1));
        setCachedLike(queryClient, postId, { liked, likeCount });
      }
      return { before: previous };
    },
    onError: (_error, _input, context) => {
      if (context?.before && isLast()) setCachedLike(queryClient, postId, context.before);
    },
    onSuccess: (state) => {
      if (isLast()) setCachedLike(queryClient, postId, state);
    },
  });
}
