import { useQuery } from '@tanstack/react-query';
import type { FullRelationship } from '@shared/schemas/relationship.js';
import { callApi } from '@web/lib/api-client.js';
import { relationshipKeys } from '../relationship-keys.js';

/**
 * How the viewer and `uid` relate: follows, blocks and mutes. More menus are on every page, so the
 * contract comes with the first call rather than in the first download.
 */
export async function getFullRelationship(
  uid: string,
  signal?: AbortSignal,
): Promise<FullRelationship> {
  const { followEndpoints } = await import('@shared/contract/endpoints/follows.js');
  return callApi(followEndpoints.getRelationship, { params: { uid }, signal });
}

/** The viewer's relationship with `uid`; idle without a viewer or for oneself. */
export function useFullRelationship(viewerUid: string | null, uid: string) {
  return useQuery({
    queryKey: relationshipKeys.state(viewerUid ?? '', uid),
    queryFn: ({ signal }) => getFullRelationship(uid, signal),
    enabled: viewerUid !== null && viewerUid !== uid,
  });
}
