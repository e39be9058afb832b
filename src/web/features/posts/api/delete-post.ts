import { useMutation, useQueryClient } from '@tanstack/react-query';
import { apiDelete } from '@web/lib/api-client.js';
import { removeCachedPost } from '../post-cache.js';

/** DELETE /api/posts/:postId (the author, or an administrator). */
export function deletePost(postId: string): Promise<void> {
  return apiDelete<undefined>(`/api/posts/${encodeURIComponent(postId)}`);
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
