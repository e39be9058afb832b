import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { Comment, UpdateCommentInput } from '@shared/schemas/post.js';
import { apiPatch } from '@web/lib/api-client.js';
import { updateCommentEverywhere, withSaved } from '../comment-cache.js';
import { commentKeys } from '../comment-keys.js';

export interface UpdateCommentVariables extends UpdateCommentInput {
  commentId: string;
}

/** PATCH /api/comments/:commentId: a new text (the comment's author only); answers the saved comment. */
export function updateComment({ commentId, ...input }: UpdateCommentVariables): Promise<Comment> {
  return apiPatch<Comment>(`/api/comments/${encodeURIComponent(commentId)}`, input);
}

export function useUpdateComment(postId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: updateComment,
    onSuccess: (saved) => {
      updateCommentEverywhere(queryClient, postId, saved.id, withSaved(saved));
      void queryClient.invalidateQueries({ queryKey: commentKeys.ofPost(postId) });
    },
  });
}
