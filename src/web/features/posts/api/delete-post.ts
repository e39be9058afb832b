import { useMutation, useQueryClient } from '@tanstack/react-query';
import { postEndpoints } from '@shared/contract/endpoints/posts.js';
import { callApi } from '@web/lib/api-client.js';
import { removeCachedPost } from '../post-cache.js';

/** DELETE /api/posts/:postId (the author, or an administrator). */
export async function deletePost(postId: string): Promise<void> {
  await callApi(postEndpoints.deletePost, { params: { postId } });
}

export function useDeletePost() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: deletePost,
    onSuccess: (_, postId) => {
      removeCachedPost(queryClient, postId);
    },
  });
}
