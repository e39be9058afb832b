import type { QueryClient } from '@tanstack/react-query';
import type { UserDocument } from '@shared/schemas/user.js';
import { userKeys } from './user-keys.js';

/**
 * DESIGN.md principle 4 (live by default): a snapshot of users/{uid} replaces every cached copy of
 * that user, whether it was fetched by uid or by username.
 */
export function writeUserSnapshotToCache(
  queryClient: QueryClient,
  uid: string,
  data: UserDocument | null,
): void {
  if (data === null) {
    queryClient.removeQueries({ queryKey: userKeys.detail(uid), exact: true });
  } else {
    queryClient.setQueryData(userKeys.detail(uid), data);
  }
  for (const [queryKey, cached] of queryClient.getQueriesData<UserDocument>({
    queryKey: userKeys.byUsernames(),
  })) {
    if (cached?.uid !== uid) continue;
    if (data === null || data.username?.toLowerCase() !== cached.username?.toLowerCase()) {
      // The name now points nowhere (deleted or renamed): let the next reader ask the server.
      void queryClient.invalidateQueries({ queryKey, exact: true });
    } else {
      queryClient.setQueryData(queryKey, data);
    }
  }
}
