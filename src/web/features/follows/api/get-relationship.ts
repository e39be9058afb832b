import { queryOptions, useQuery } from '@tanstack/react-query';
import { followEndpoints } from '@shared/contract/endpoints/follows.js';
import type { Relationship } from '@shared/schemas/follow.js';
import { callApi } from '@web/lib/api-client.js';
import { followKeys } from '../follow-keys.js';

/** Whether the viewer follows this user, and the other way round. */
export function getRelationship(uid: string, signal?: AbortSignal): Promise<Relationship> {
  return callApi(followEndpoints.getRelationship, { params: { uid }, signal });
}

/** The relationship of `viewerUid` with `uid`, cached under the viewer's key. */
export function getRelationshipQueryOptions(viewerUid: string, uid: string) {
  return queryOptions({
    queryKey: followKeys.relationship(viewerUid, uid),
    queryFn: ({ signal }) => getRelationship(uid, signal),
  });
}

/** The viewer's relationship with `uid`; idle without a viewer, or for the viewer's own profile. */
export function useRelationship(viewerUid: string | null, uid: string) {
  return useQuery({
    ...getRelationshipQueryOptions(viewerUid ?? '', uid),
    enabled: viewerUid !== null && viewerUid !== uid,
  });
}
