import { queryOptions, useQuery } from '@tanstack/react-query';
import type { PostView } from '@shared/schemas/post.js';
import { postEndpoints } from '@shared/contract/endpoints/posts.js';
import { callApi, isApiError } from '@web/lib/api-client.js';
import { postKeys } from '../post-keys.js';

/** GET /api/posts/:postId */
export function getPost(postId: string, signal?: AbortSignal): Promise<PostView> {
  return callApi(postEndpoints.getPost, { params: { postId }, signal });
}

/** Like getPost, but a missing post is an answer (null), as in a realtime snapshot. */
export async function getPostOrNull(postId: string): Promise<PostView | null> {
  try {
    return await getPost(postId);
  } catch (error) {
    if (isApiError(error, 'not_found')) return null;
    throw error;
  }
}

export function getPostQueryOptions(postId: string) {
  return queryOptions({
    queryKey: postKeys.detail(postId),
    queryFn: ({ signal }) => getPost(postId, signal),
  });
}

export function usePost(postId: string, enabled = true) {
  return useQuery({ ...getPostQueryOptions(postId), enabled });
}
