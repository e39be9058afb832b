import { useRelationshipsLive } from '../hooks/use-relationships-live.js';

/**
 * Follows the signed-in account's blocks and mutes for the whole app; renders nothing. `uid` is null
 * while nobody is signed in (or the session is still loading).
 */
export function RelationshipsLive({ uid }: { uid: string | null }) {
  useRelationshipsLive(uid);
  return null;
}
