import { useMutation, useQueryClient } from '@tanstack/react-query';
import { commentEndpoints } from '@shared/contract/endpoints/comments.js';
import { callApi, isApiError } from '@web/lib/api-client.js';
import { updateCommentEverywhere } from '../comment-cache.js';
import { commentKeys } from '../comment-keys.js';

/** Deletes a comment (its author, the post's author or an admin); a thread goes with its replies. */
export async function deleteComment(commentId: string): Promise<void> {
  await callApi(commentEndpoints.deleteComment, { params: { commentId } });
}

/** Deletes a comment and takes it out of every cached list of the post, also when it was already gone. */
export function useDeleteComment(postId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: deleteComment,
    onSuccess: (_nothing, commentId) => {
      updateCommentEverywhere(queryClient, postId, commentId, () => null);
      void queryClient.invalidateQueries({ queryKey: commentKeys.ofPost(postId) });
    },
    onError: (error, commentId) => {
      // Already deleted (by its author, the post's author or an administrator): it goes here too.
      if (!isApiError(error, 'not_found')) return;
      updateCommentEverywhere(queryClient, postId, commentId, () => null);
      void queryClient.invalidateQueries({ queryKey: commentKeys.ofPost(postId) });
    },
  });
}
