import { InfiniteQueryObserver, QueryClient, type InfiniteData } from '@tanstack/react-query';
import { describe, expect, it } from 'vitest';
import { feedKeys } from '@web/lib/feed-keys.js';
import { followKeys } from '../follow-keys.js';
import { refreshAfterFollow } from './set-follow.js';

type Pages = InfiniteData<{ items: string[]; nextCursor: string | null }, string | undefined>;

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
