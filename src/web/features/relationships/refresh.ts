import type { QueryClient } from '@tanstack/react-query';
import { relationshipKeys } from './relationship-keys.js';

/** Long enough for screens that now hide someone (a profile's posts) to leave before lists are read again. */
const settleMs = 50;

/**
 * After a block or mute changed, in this tab or another: whom the viewer hides, and how they relate to
 * the people on screen, are read first; then, once screens that no longer show someone's content have
 * gone, every other query on screen is read again (feeds, threads, lists, counts), the rest when next
 * shown. Nothing asks for what is no longer there.
 */
export async function refreshAfterRelationshipChange(queryClient: QueryClient): Promise<void> {
  await queryClient.refetchQueries({ queryKey: relationshipKeys.all, type: 'active' });
  await new Promise((resolve) => setTimeout(resolve, settleMs));
  await queryClient.invalidateQueries({
    predicate: (query) => query.queryKey[0] !== relationshipKeys.all[0],
  });
}
