import { useCallback, useSyncExternalStore } from 'react';
import { useQueryClient } from '@tanstack/react-query';
import { postTopic } from '@shared/realtime-protocol.js';
import type { Post } from '@shared/schemas/post.js';
import { realtimeClient } from '@web/lib/realtime-client.js';
import { getPostOrNull } from '../api/get-post.js';
import { patchCachedPost, removeCachedPost } from '../post-cache.js';

export interface PostDocumentState {
  /** True once a first snapshot (socket or HTTP fallback) has arrived. */
  hasSnapshot: boolean;
  /** The live post; null when it does not exist (or was deleted); undefined before the first snapshot. */
  data: Post | null | undefined;
}

const noSubscription = () => () => undefined;

/**
 * Live posts/{id} (issue: posts §7): counts, edits and deletion. Every snapshot also reaches each
 * cached copy of the post, so the lists behind this page are current when the reader goes back.
 */
export function usePostDocument(postId: string | null): PostDocumentState {
  const queryClient = useQueryClient();
  const topic = postId ? postTopic(postId) : null;

  const subscribe = useCallback(
    (onChange: () => void) => {
      if (!postId || !topic) return noSubscription();
      return realtimeClient.subscribe(
        topic,
        () => {
          const snapshot = realtimeClient.getSnapshot(topic);
          if (snapshot) {
            const post = snapshot.data;
            if (post) patchCachedPost(queryClient, post);
            else removeCachedPost(queryClient, postId);
          }
          onChange();
        },
        { fetchSnapshot: () => getPostOrNull(postId) },
      );
    },
    [queryClient, postId, topic],
  );

  const snapshot = useSyncExternalStore(subscribe, () =>
    topic ? realtimeClient.getSnapshot(topic) : undefined,
  );

  return {
    hasSnapshot: snapshot !== undefined,
    data: snapshot?.data,
  };
}
