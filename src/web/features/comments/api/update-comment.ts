import { useMutation, useQueryClient } from '@tanstack/react-query';
import { commentEndpoints } from '@shared/contract/endpoints/comments.js';
import type { Comment, UpdateCommentInput } from '@shared/schemas/post.js';
import { callApi } from '@web/lib/api-client.js';
import { updateCommentEverywhere, withSaved } from '../comment-cache.js';
import { commentKeys } from '../comment-keys.js';

export interface UpdateCommentVariables extends UpdateCommentInput {
  commentId: string;
}

/** Gives a comment a new text (its author only); answers the saved comment. */
export function updateComment({ commentId, ...input }: UpdateCommentVariables): Promise<Comment> {
  return callApi(commentEndpoints.updateComment, { params: { commentId }, body: input });
}

/** Saves a comment's new text and shows it in every cached list of the post. */
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
