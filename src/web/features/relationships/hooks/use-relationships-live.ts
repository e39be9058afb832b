import { useEffect } from 'react';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { relationshipsTopic } from '@shared/realtime-protocol.js';
import { setHiddenAuthors } from '@web/lib/hidden-authors.js';
import { usePageSettled } from '@web/lib/page-settled.js';
import { realtimeClient } from '@web/lib/realtime-client.js';
import { getHiddenAuthorsQueryOptions } from '../api/hidden-authors.js';
import { refreshAfterRelationshipChange } from '../refresh.js';

/**
 * Keeps the signed-in account's blocks and mutes live in every open tab (ADR 0022): whom it hides is read
 * once, and again whenever the `relationships/{uid}` revision moves (a block or mute by either side, in
 * any tab, or a mute running out); what is on screen is then read again, so the other person's posts and
 * comments leave at once. `uid` is null when nobody is signed in: nothing is asked, nothing is hidden.
 * On a first load the set is asked once the page has settled, as the socket that brings live arrivals is
 * opened (ADR 0035): the pages' own reads leave hidden authors out on the server.
 */
export function useRelationshipsLive(uid: string | null) {
  const queryClient = useQueryClient();
  useEffect(() => {
    if (uid === null) {
      setHiddenAuthors([]);
      return;
    }
    const topic = relationshipsTopic(uid);
    let known = realtimeClient.getSnapshot(topic)?.data.revision;
    return realtimeClient.subscribe(topic, () => {
      const revision = realtimeClient.getSnapshot(topic)?.data.revision;
      if (revision === undefined || revision === known) return;
      const first = known === undefined;
      known = revision;
      // The first snapshot only confirms what the read below already has.
      if (first) return;
      void refreshAfterRelationshipChange(queryClient);
    });
  }, [queryClient, uid]);
  const settled = usePageSettled();
  return useQuery({ ...getHiddenAuthorsQueryOptions(uid ?? ''), enabled: uid !== null && settled });
}
