import { useMutation, useQueryClient } from '@tanstack/react-query';
import { commentEndpoints } from '@shared/contract/endpoints/comments.js';
import type { Comment, CreateCommentInput } from '@shared/schemas/post.js';
import { callApi } from '@web/lib/api-client.js';
import { addPosted, type PostedComment } from '../comment-cache.js';
import { commentKeys } from '../comment-keys.js';

export interface CreateCommentVariables extends CreateCommentInput {
  postId: string;
}

/** Writes a top-level comment on a post, or with `parentId` a reply in that thread (`createComment`). */
export function createComment({ postId, ...input }: CreateCommentVariables): Promise<Comment> {
  return callApi(commentEndpoints.createComment, { params: { postId }, body: input });
}

/** Writes a comment; it shows at once at the end of its list, even when older pages are not loaded yet. */
export function useCreateComment(postId: string, viewerUid: string | null) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: createComment,
    onSuccess: (comment) => {
      queryClient.setQueryData<PostedComment[]>(commentKeys.posted(postId, viewerUid), (posted) =>
        addPosted(posted, comment, Date.now()),
      );
      // Restart any read that began before the comment existed: a list read from now on is
      // complete, which tells a deleted comment from one not fetched yet (comment-cache.ts).
      return queryClient.invalidateQueries({ queryKey: commentKeys.ofPost(postId) });
    },
  });
}
