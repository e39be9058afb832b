import { queryOptions, useQuery } from '@tanstack/react-query';
import type { PostVersion } from '@shared/schemas/post.js';
import { postEndpoints } from '@shared/contract/endpoints/posts.js';
import { callApi } from '@web/lib/api-client.js';
import { postKeys } from '../post-keys.js';

/** GET /api/posts/:postId/versions: the earlier texts of an edited post, newest first. */
export async function getPostVersions(
  postId: string,
  signal?: AbortSignal,
): Promise<PostVersion[]> {
  const answer = await callApi(postEndpoints.getPostVersions, { params: { postId }, signal });
  return answer.items;
}

export function getPostVersionsQueryOptions(postId: string) {
  return queryOptions({
    queryKey: postKeys.versions(postId),
    queryFn: ({ signal }) => getPostVersions(postId, signal),
  });
}

export function usePostVersions(postId: string) {
  return useQuery(getPostVersionsQueryOptions(postId));
}
