import { InfiniteQueryObserver, QueryClient, type InfiniteData } from '@tanstack/react-query';
import { describe, expect, it } from 'vitest';
import { fillPath } from '@shared/contract/endpoint.js';
import { followEndpoints } from '@shared/contract/endpoints/follows.js';
import { feedKeys } from '@web/lib/feed-keys.js';
import { jsonResponse, stubFetch, stubJsonAnswer } from '@web/test/fetch-stub.js';
import { followKeys } from '../follow-keys.js';
import { refreshAfterFollow, setFollow } from './set-follow.js';

type Pages = InfiniteData<{ items: string[]; nextCursor: string | null }, string | undefined>;

describe('setFollow', () => {
  it("follows with PUT and unfollows with DELETE, answering the followed user's count", async () => {
    const fetchMock = stubFetch((_url, init) => {
      const following = init?.method === 'PUT';
      return Promise.resolve(jsonResponse({ following, followerCount: following ? 5 : 4 }));
    });
    await expect(setFollow({ uid: 'u2', following: true })).resolves.toEqual({
      following: true,
      followerCount: 5,
    });
    await expect(setFollow({ uid: 'u2', following: false })).resolves.toEqual({
      following: false,
      followerCount: 4,
    });
    const path = fillPath(followEndpoints.followUser.path, { uid: 'u2' });
    expect(fetchMock.mock.calls.map(([url, init]) => [url, init?.method])).toEqual([
      [path, 'PUT'],
      [path, 'DELETE'],
    ]);
  });

  it("rejects with the server's reason when following oneself", async () => {
    const message = "You can't follow yourself.";
    stubJsonAnswer({ error: { code: 'validation_failed', message } }, 400);
    await expect(setFollow({ uid: 'u1', following: true })).rejects.toMatchObject({
      status: 400,
      message,
    });
  });
});

describe('after a follow or an unfollow', () => {
  it("marks the Following feed and both people's lists stale, and nothing else", () => {
    const queryClient = new QueryClient();
    const keys = {
      following: feedKeys.feed('following'),
      everyone: feedKeys.feed('everyone'),
      tag: feedKeys.feed('everyone', 'hearth'),
      mine: followKeys.list('me', 'following', 'me'),
      theirs: followKeys.list('them', 'followers', 'me'),
      other: followKeys.list('someone-else', 'followers', 'me'),
    };
    for (const key of Object.values(keys)) queryClient.setQueryData(key, { pages: [] });

    refreshAfterFollow(queryClient, 'me', 'them');

    const stale = (key: readonly unknown[]) => queryClient.getQueryState(key)?.isInvalidated;
    expect(stale(keys.following)).toBe(true);
    expect(stale(keys.mine)).toBe(true);
    expect(stale(keys.theirs)).toBe(true);
    expect(stale(keys.everyone)).toBe(false);
    expect(stale(keys.tag)).toBe(false);
    expect(stale(keys.other)).toBe(false);
  });

  it('refreshes a Following feed on screen in place, from where its first page is anchored', async () => {
    const queryClient = new QueryClient();
    const asked: (string | undefined)[] = [];
    const observer = new InfiniteQueryObserver<
      Pages['pages'][number],
      Error,
      Pages,
      readonly unknown[],
      string | undefined
    >(queryClient, {
      queryKey: feedKeys.feed('following'),
      queryFn: ({ pageParam }) => {
        asked.push(pageParam);
        return Promise.resolve({ items: ['41', '40'], nextCursor: null });
      },
      initialPageParam: undefined,
      getNextPageParam: (last) => last.nextCursor ?? undefined,
      staleTime: Infinity,
    });
    // The reader's first page, pinned above its newest post ("42" is cursorAbove("41")).
    queryClient.setQueryData<Pages>(feedKeys.feed('following'), {
      pages: [{ items: ['41'], nextCursor: null }],
      pageParams: ['42'],
    });
    const unsubscribe = observer.subscribe(() => undefined);

    refreshAfterFollow(queryClient, 'me', 'them');
    await queryClient.getQueryCache().find({ queryKey: feedKeys.feed('following') })?.promise;
    await new Promise((resolve) => setTimeout(resolve, 0));

    expect(asked).toEqual(['42']);
    expect(queryClient.getQueryData<Pages>(feedKeys.feed('following'))?.pages[0]?.items).toEqual([
      '41',
      '40',
    ]);
    unsubscribe();
  });
});
