import { useEffect, useEffectEvent } from 'react';
import { useQueryClient } from '@tanstack/react-query';
import { feedTopic } from '@shared/realtime-protocol.js';
import type { FeedSignal } from '@shared/schemas/post.js';
import { realtimeClient } from '@web/lib/realtime-client.js';
import { getFeedHead } from '../api/get-feed-head.js';
import { patchCachedPost, removeCachedPost } from '../post-cache.js';

/**
 * Follows the `feed` topic (issue: posts §7). Each change is applied to every cached list and post
 * (edits, counts, deletions), then `onSignal` hears it; `isChange` is false for the snapshot a
 * screen finds on arrival, whose change somebody else already applied and which only tells the head.
 */
export function useFeedSignal(onSignal?: (signal: FeedSignal, isChange: boolean) => void): void {
  const queryClient = useQueryClient();
  const notify = useEffectEvent((signal: FeedSignal, isChange: boolean) => {
    onSignal?.(signal, isChange);
  });
  useEffect(() => {
    const held = realtimeClient.getSnapshot(feedTopic)?.data;
    if (held) notify(held, false);
    return realtimeClient.subscribe(
      feedTopic,
      () => {
        const signal = realtimeClient.getSnapshot(feedTopic)?.data;
        if (!signal) return;
        const change = signal.change;
        if (change?.kind === 'updated') patchCachedPost(queryClient, change.post);
        if (change?.kind === 'deleted') removeCachedPost(queryClient, change.postId);
        notify(signal, change !== null);
      },
      { fetchSnapshot: getFeedHead },
    );
  }, [queryClient]);
}
