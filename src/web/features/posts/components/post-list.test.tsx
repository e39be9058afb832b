// @vitest-environment jsdom
import { useInfiniteQuery } from '@tanstack/react-query';
import { act, cleanup, screen } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { Page, PostView } from '@shared/schemas/post.js';
import { makePost, makePostPage } from '@web/test/post-fixtures.js';
import { renderRoute } from '@web/test/render-route.js';
import { patchCachedPost } from '../post-cache.js';
import { postKeys } from '../post-keys.js';
import { PostList } from './post-list.js';

/** How many times each post's actions rendered: a card renders them every time it renders. */
const renders = vi.hoisted(() => new Map<string, number>());
vi.mock('./post-actions.js', () => ({
  PostActions: ({ post }: { post: PostView }) => {
    renders.set(post.id, (renders.get(post.id) ?? 0) + 1);
    return <p>{`${String(post.likeCount)} likes`}</p>;
  },
}));

const queryKey = postKeys.byUser('u1');

function Feed({ page }: { page: Page<PostView> }) {
  const query = useInfiniteQuery({
    queryKey,
    queryFn: () => Promise.resolve(page),
    initialPageParam: null as string | null,
    getNextPageParam: (last: Page<PostView>) => last.nextCursor,
  });
  return (
    <PostList
      queryKey={queryKey}
      query={query}
      viewer={null}
      label="Everyone"
      empty={<p>No posts.</p>}
      errorTitle="Could not load posts"
    />
  );
}

afterEach(() => {
  cleanup();
  renders.clear();
});

describe('PostList', () => {
  it('renders only the card of a post that changed, not the whole list', async () => {
    const ids = ['6', '5', '4', '3', '2', '1'];
    const { queryClient } = renderRoute({
      path: '/',
      url: '/',
      element: <Feed page={makePostPage(ids)} />,
    });
    expect(await screen.findAllByText('0 likes')).toHaveLength(ids.length);
    renders.clear();

    // A live like of post 4, applied as the feed's socket applies it.
    act(() => {
      patchCachedPost(queryClient, makePost({ id: '4', likeCount: 1 }));
    });
    expect(await screen.findByText('1 likes')).toBeTruthy();
    expect([...renders]).toEqual([['4', 1]]);
  });
});
