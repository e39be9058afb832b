import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { PostView } from '@shared/schemas/post.js';
import { postEndpoints } from '@shared/contract/endpoints/posts.js';
import { callApi } from '@web/lib/api-client.js';
import { patchCachedPost } from '../post-cache.js';

export interface UpdatePostInput {
  postId: string;
  body: string;
  /** New descriptions of the images by position (null for none); absent to leave them. */
  alts?: (string | null)[];
}

/** PATCH /api/posts/:postId (the author only). */
export function updatePost({ postId, ...changes }: UpdatePostInput): Promise<PostView> {
  return callApi(postEndpoints.updatePost, { params: { postId }, body: changes });
}

export function useUpdatePost() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: updatePost,
    onSuccess: (post) => {
      patchCachedPost(queryClient, post);
    },
  });
}
