import {
  InfiniteQueryObserver,
  QueryClient,
  QueryObserver,
  type QueryKey,
} from '@tanstack/react-query';
import { describe, expect, it, vi } from 'vitest';
import type { Page, PostView } from '@shared/schemas/post.js';
import { accountKeys } from '@web/features/account/account-keys.js';
import { commentKeys } from '@web/features/comments/comment-keys.js';
import { followKeys } from '@web/features/follows/follow-keys.js';
import { instanceKeys } from '@web/features/instance/instance-keys.js';
import { notificationKeys } from '@web/features/notifications/notification-keys.js';
import type { PostPages } from '@web/features/posts/post-cache.js';
import { postKeys } from '@web/features/posts/post-keys.js';
import { userKeys } from '@web/features/users/user-keys.js';
import { makePostView } from '@web/test/post-fixtures.js';
import { makeUserDocument } from '@web/test/user-fixtures.js';
import { forgetViewer } from './viewer-cache.js';

const liked = makePostView({ id: '7', liked: true, likeCount: 3 });
const pages = (post: PostView): PostPages => ({
  pages: [{ items: [post], nextCursor: null }],
  pageParams: [undefined],
});

function setUp() {
  const queryClient = new QueryClient({
    // Nothing goes stale by itself: every read a test counts is one forgetViewer asked for.
    defaultOptions: { queries: { retry: false, staleTime: Infinity } },
  });
  const reads = new Map<string, number>();
  const count = (key: QueryKey) => {
    const name = JSON.stringify(key);
    reads.set(name, (reads.get(name) ?? 0) + 1);
  };
  /** Caches `data`, with a screen showing it when `onScreen`; a read answers it unliked. */
  const cache = (queryKey: QueryKey, data: unknown, onScreen: boolean) => {
    queryClient.setQueryData(queryKey, data);
    if (!onScreen) return;
    new QueryObserver(queryClient, {
      queryKey,
      queryFn: () => {
        count(queryKey);
        return Promise.resolve(data);
      },
    }).subscribe(() => undefined);
  };
  /** A list of posts on screen, as the feeds hold them. */
  const showList = (queryKey: QueryKey, post: PostView) => {
    queryClient.setQueryData(queryKey, pages(post));
    new InfiniteQueryObserver(queryClient, {
      queryKey,
      queryFn: (): Promise<Page<PostView>> => {
        count(queryKey);
        return Promise.resolve({ items: [{ ...post, liked: false }], nextCursor: null });
      },
      initialPageParam: undefined as string | undefined,
      getNextPageParam: () => undefined,
    }).subscribe(() => undefined);
  };
  const readsOf = (key: QueryKey) => reads.get(JSON.stringify(key)) ?? 0;
  return { queryClient, cache, showList, readsOf };
}

describe('forgetViewer', () => {
  it('shows posts on screen unliked at once and reads them again for the new viewer', async () => {
    const { queryClient, cache, showList, readsOf } = setUp();
    const everyone = postKeys.feed('everyone');
    showList(everyone, liked);
    cache(postKeys.detail(liked.id), liked, true);

    forgetViewer(queryClient);
    expect(queryClient.getQueryData<PostPages>(everyone)?.pages[0]?.items[0]).toEqual({
      ...liked,
      liked: false,
    });
    expect(queryClient.getQueryData<PostView>(postKeys.detail(liked.id))?.liked).toBe(false);
    await vi.waitFor(() => {
      expect(readsOf(everyone)).toBe(1);
      expect(readsOf(postKeys.detail(liked.id))).toBe(1);
    });
  });

  it('drops what no screen shows of posts, comments, follows and the sessions list', () => {
    const { queryClient, cache } = setUp();
    const hidden: QueryKey[] = [
      postKeys.feed('everyone', 'tag'),
      postKeys.byUser('u1'),
      postKeys.detail('8'),
      commentKeys.threads('7', 'u1'),
      commentKeys.posted('7', 'u1'),
      followKeys.relationship('u1', 'u2'),
      followKeys.list('u2', 'followers', 'u1'),
      accountKeys.sessions(),
    ];
    for (const key of hidden) cache(key, { from: 'the previous viewer' }, false);
    forgetViewer(queryClient);
    for (const key of hidden)
      expect(queryClient.getQueryData(key), JSON.stringify(key)).toBe(undefined);
  });

  it('never shows the previous Following feed or sessions list: screens load them from nothing', async () => {
    const { queryClient, cache, showList, readsOf } = setUp();
    const following = postKeys.feed('following');
    showList(following, liked);
    cache(accountKeys.sessions(), { sessions: ['theirs'] }, true);
    forgetViewer(queryClient);
    expect(queryClient.getQueryData(following)).toBeUndefined();
    expect(queryClient.getQueryData(accountKeys.sessions())).toBeUndefined();
    await vi.waitFor(() => {
      expect(readsOf(following)).toBe(1);
      expect(readsOf(accountKeys.sessions())).toBe(1);
    });
  });

  it('reads again the comments and follows on screen for the new viewer', async () => {
    const { queryClient, cache, readsOf } = setUp();
    const threads = commentKeys.threads('7', 'u2');
    const relationship = followKeys.relationship('u2', 'u3');
    cache(threads, { items: [] }, true);
    cache(relationship, { following: false }, true);
    forgetViewer(queryClient);
    await vi.waitFor(() => {
      expect(readsOf(threads)).toBe(1);
      expect(readsOf(relationship)).toBe(1);
    });
  });

  it('keeps what is the same for everyone: user documents, likers, versions, the instance', async () => {
    const { queryClient, cache, readsOf } = setUp();
    const kept: [QueryKey, unknown][] = [
      [userKeys.detail('u1'), makeUserDocument()],
      [userKeys.byUsername('ada'), makeUserDocument()],
      [postKeys.likers('7'), { pages: [], pageParams: [] }],
      [postKeys.versions('7'), { items: [] }],
      [instanceKeys.detail(), { name: 'Hearth' }],
    ];
    for (const [key, data] of kept) cache(key, data, false);
    cache(userKeys.detail('u2'), makeUserDocument({ uid: 'u2' }), true);
    forgetViewer(queryClient);
    for (const [key, data] of kept) expect(queryClient.getQueryData(key)).toEqual(data);
    await new Promise((resolve) => setTimeout(resolve, 10));
    expect(readsOf(userKeys.detail('u2'))).toBe(0);
  });

  it('drops the previous viewer’s unread count and notifications', () => {
    const { queryClient, cache } = setUp();
    cache(notificationKeys.unread('u1'), { unread: 3, newestId: '9' }, false);
    cache(notificationKeys.list('all'), { pages: [], pageParams: [] }, false);
    forgetViewer(queryClient);
    expect(queryClient.getQueryData(notificationKeys.unread('u1'))).toBeUndefined();
    expect(queryClient.getQueryData(notificationKeys.list('all'))).toBeUndefined();
  });
});
