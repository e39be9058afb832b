import type { QueryClient } from '@tanstack/react-query';
import type { PostView } from '@shared/schemas/post.js';
import { accountKeys } from '@web/features/account/account-keys.js';
import { commentKeys } from '@web/features/comments/comment-keys.js';
import { followKeys } from '@web/features/follows/follow-keys.js';
import { notificationKeys } from '@web/features/notifications/notification-keys.js';
import { mapPosts, type PostPages } from '@web/features/posts/post-cache.js';
import { postKeys } from '@web/features/posts/post-keys.js';
import { refreshViewerQueries, resetViewerQueries } from '@web/lib/query-client.js';

const unliked = (post: PostView): PostView => (post.liked ? { ...post, liked: false } : post);

/**
 * The signed-in account changed or its session ended (sign-in, sign-out, revoked, expired, deleted): nothing
 * cached for the previous viewer may show for the next one (spec §4: resubscribe on account change). User
 * documents, likers, versions and the instance are the same for everyone and stay.
 */
export function forgetViewer(queryClient: QueryClient): void {
  // Posts are cached under keys every viewer shares, each with the viewer's own `liked`: on screen they show
  // unliked until they are read again for the new viewer.
  queryClient.setQueriesData<PostPages>({ queryKey: postKeys.lists(), type: 'active' }, (data) =>
    data ? mapPosts(data, unliked) : data,
  );
  queryClient.setQueriesData<PostView>({ queryKey: postKeys.details(), type: 'active' }, (data) =>
    data ? unliked(data) : data,
  );
  // Whom the previous viewer follows is theirs alone: never shown to the next one, even for a moment.
  resetViewerQueries(queryClient, postKeys.feed('following'));
  refreshViewerQueries(queryClient, postKeys.lists());
  refreshViewerQueries(queryClient, postKeys.details());
  // Comments and follows name their viewer in their keys; the previous viewer's copies go.
  refreshViewerQueries(queryClient, commentKeys.all);
  refreshViewerQueries(queryClient, followKeys.all);
  resetViewerQueries(queryClient, accountKeys.all);
  // Notifications and their unread count belong wholly to the previous viewer.
  resetViewerQueries(queryClient, notificationKeys.all);
}
