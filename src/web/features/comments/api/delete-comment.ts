import { useMutation, useQueryClient } from '@tanstack/react-query';
import { apiDelete, isApiError } from '@web/lib/api-client.js';
import { updateCommentEverywhere } from '../comment-cache.js';
import { commentKeys } from '../comment-keys.js';

/** DELETE /api/comments/:commentId: its author, the post's author or an admin; a thread goes with its replies. */
export function deleteComment(commentId: string): Promise<undefined> {
  return apiDelete<undefined>(`/api/comments/${encodeURIComponent(commentId)}`);
}

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
