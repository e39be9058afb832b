import { useQuery, useQueryClient } from '@tanstack/react-query';
import type { PostedComment } from '../comment-cache.js';
import { commentKeys } from '../comment-keys.js';

/**
 * The viewer's comments written on this page, newest last. They live only in the query cache (written
 * by useCreateComment), so likes, edits and deletions reach them like any other cached comment.
 */
export function usePostedComments(postId: string, viewerUid: string | null): PostedComment[] {
  const queryClient = useQueryClient();
  const key = commentKeys.posted(postId, viewerUid);
  const query = useQuery({
    queryKey: key,
    // Nothing to ask the server: a refresh of the post's comments leaves this list as it is.
    queryFn: () => queryClient.getQueryData<PostedComment[]>(key) ?? [],
    initialData: [],
    staleTime: Infinity,
  });
  return query.data;
}
