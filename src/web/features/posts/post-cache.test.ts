import { QueryClient } from '@tanstack/react-query';
import { describe, expect, it } from 'vitest';
import type { PostView } from '@shared/schemas/post.js';
import { makePost, makePostPage, makePostView } from '@web/test/post-fixtures.js';
import {
  addOwnPost,
  compareIds,
  cursorAbove,
  findCachedPost,
  insertNewPosts,
  mapPosts,
  mergePending,
  newestKnownId,
  newestPostId,
  patchCachedPost,
  pinFirstPage,
  postsOf,
  removeCachedPost,
  setCachedLike,
  withPostUpdate,
  type PostPages,
} from './post-cache.js';
import { postKeys } from './post-keys.js';

function pages(...lists: string[][]): PostPages {
  return {
    pages: lists.map((ids, index) => makePostPage(ids, index < lists.length - 1 ? 'x' : null)),
    pageParams: lists.map((ids, index) => (index === 0 ? undefined : ids[0])),
  };
}

const ids = (data: PostPages | undefined) => postsOf(data).map((post) => post.id);
const views = (...list: string[]) => list.map((id) => makePostView({ id }));

describe('compareIds', () => {
  it('orders decimal ids as numbers, not as text', () => {
    expect(compareIds('9', '10')).toBeLessThan(0);
    expect(compareIds('100', '99')).toBeGreaterThan(0);
    expect(compareIds('42', '42')).toBe(0);
  });
});

describe('cursorAbove', () => {
  it('is the next id, so a page asked with it starts at the given post', () => {
    expect(cursorAbove('41')).toBe('42');
    expect(cursorAbove('9999999999999998')).toBe('9999999999999999');
  });

  it('is undefined past the largest id', () => {
    expect(cursorAbove('9999999999999999')).toBeUndefined();
  });
});

describe('pinFirstPage', () => {
  it('pins a first page asked without a cursor to its newest post', () => {
    expect(pinFirstPage(pages(['7', '5'], ['3'])).pageParams).toEqual(['8', '3']);
  });

  it('leaves pinned or empty lists alone (same object)', () => {
    const pinned = pinFirstPage(pages(['7']));
    expect(pinFirstPage(pinned)).toBe(pinned);
    const empty = pages([]);
    expect(pinFirstPage(empty)).toBe(empty);
  });
});

describe('mapPosts', () => {
  it('returns the same object when nothing changes', () => {
    const data = pages(['3', '2'], ['1']);
    expect(mapPosts(data, (post) => post)).toBe(data);
  });

  it('keeps untouched pages and drops posts mapped to null', () => {
    const data = pages(['3', '2'], ['1']);
    const next = mapPosts(data, (post) => (post.id === '2' ? null : post));
    expect(ids(next)).toEqual(['3', '1']);
    expect(next.pages[1]).toBe(data.pages[1]);
  });
});

describe('withPostUpdate', () => {
  it('takes the public document and keeps the viewer’s like', () => {
    const mine = makePostView({ id: '1', liked: true, likeCount: 1, body: 'old' });
    const update = makePost({
      id: '1',
      likeCount: 5,
      body: 'new',
      editedAt: '2025-02-02T00:00:00Z',
    });
    expect(withPostUpdate(mine, update)).toEqual({ ...update, liked: true });
  });

  it('keeps the viewer’s copy, and each part that did not change, as they were', () => {
    const mine = makePostView({ id: '1', liked: true, likeCount: 1 });
    const { liked: _liked, ...document } = structuredClone(mine);
    expect(withPostUpdate(mine, document)).toBe(mine);
    const liked = withPostUpdate(mine, { ...document, likeCount: 2 });
    expect(liked).not.toBe(mine);
    expect(liked.likeCount).toBe(2);
    expect(liked.author).toBe(mine.author);
    expect(liked.images).toBe(mine.images);
  });
});

describe('insertNewPosts', () => {
  it('puts new posts on top, newest first, and pins the first page above them', () => {
    const next = insertNewPosts(pages(['5', '4'], ['3']), views('7', '6'));
    expect(ids(next)).toEqual(['7', '6', '5', '4', '3']);
    expect(next.pageParams).toEqual(['8', '3']);
  });

  it('never repeats a post the list already holds, wherever it is', () => {
    const next = insertNewPosts(pages(['5', '4'], ['3']), views('6', '5', '3'));
    expect(ids(next)).toEqual(['6', '5', '4', '3']);
  });

  it('keeps the order by id even when posts arrive out of order', () => {
    const next = insertNewPosts(pages(['10']), views('11', '13', '12'));
    expect(ids(next)).toEqual(['13', '12', '11', '10']);
  });

  it('returns the same object when nothing is new', () => {
    const data = pages(['5']);
    expect(insertNewPosts(data, views('5'))).toBe(data);
  });

  it('fills an empty list', () => {
    expect(ids(insertNewPosts(pages([]), views('1')))).toEqual(['1']);
  });
});

describe('mergePending', () => {
  it('adds what came in once each, newest first, minus what the list shows', () => {
    const merged = mergePending(views('9', '8'), views('10', '9', '7'), new Set(['7']));
    expect(merged.map((post) => post.id)).toEqual(['10', '9', '8']);
  });

  it('takes the newer copy of a post that arrives again', () => {
    const merged = mergePending(
      [makePostView({ id: '9', likeCount: 0 })],
      [makePostView({ id: '9', likeCount: 2 })],
      new Set(),
    );
    expect(merged).toEqual([makePostView({ id: '9', likeCount: 2 })]);
  });
});

describe('newestKnownId / newestPostId', () => {
  it('find the newest of the list top and the waiting posts', () => {
    expect(newestPostId(pages(['5', '4']))).toBe('5');
    expect(newestPostId(pages([]))).toBeNull();
    expect(newestKnownId('5', views('12', '9'))).toBe('12');
    expect(newestKnownId('15', views('12'))).toBe('15');
    expect(newestKnownId(null, [])).toBeNull();
  });
});

describe('cache-wide changes', () => {
  function setup() {
    const queryClient = new QueryClient();
    const everyone = postKeys.feed('everyone');
    const byUser = postKeys.byUser('u1');
    queryClient.setQueryData(everyone, pages(['3', '2'], ['1']));
    queryClient.setQueryData(byUser, pages(['2']));
    queryClient.setQueryData(postKeys.detail('2'), makePostView({ id: '2', liked: true }));
    const read = (key: readonly unknown[]) => queryClient.getQueryData<PostPages>(key);
    const find = (key: readonly unknown[], id: string): PostView | undefined =>
      postsOf(read(key)).find((post) => post.id === id);
    return { queryClient, everyone, byUser, find, read };
  }

  it('patches every copy of an updated post, keeping each copy’s like', () => {
    const { queryClient, everyone, byUser, find } = setup();
    patchCachedPost(queryClient, makePost({ id: '2', body: 'edited', likeCount: 4 }));
    expect(find(everyone, '2')).toMatchObject({ body: 'edited', likeCount: 4, liked: false });
    expect(find(byUser, '2')).toMatchObject({ body: 'edited', likeCount: 4 });
    expect(queryClient.getQueryData(postKeys.detail('2'))).toMatchObject({
      body: 'edited',
      liked: true,
    });
    expect(find(everyone, '3')?.body).toBe('Hello');
  });

  it('leaves every copy, and its watchers, alone when the post comes again unchanged', () => {
    const { queryClient, everyone, byUser } = setup();
    const cached = findCachedPost(queryClient, '2');
    if (!cached) throw new Error('the post is not cached');
    const { liked: _liked, ...document } = structuredClone(cached);
    const before = [everyone, byUser, postKeys.detail('2')].map((key) => ({
      data: queryClient.getQueryData(key),
      updatedAt: queryClient.getQueryState(key)?.dataUpdatedAt,
    }));
    const notified: unknown[] = [];
    const stop = queryClient.getQueryCache().subscribe((event) => notified.push(event.type));
    patchCachedPost(queryClient, document);
    stop();
    const after = [everyone, byUser, postKeys.detail('2')].map((key) => ({
      data: queryClient.getQueryData(key),
      updatedAt: queryClient.getQueryState(key)?.dataUpdatedAt,
    }));
    expect(after).toEqual(before);
    after.forEach((entry, index) => expect(entry.data).toBe(before[index]?.data));
    expect(notified).toEqual([]);
  });

  it('sets the viewer’s like on every copy', () => {
    const { queryClient, everyone, byUser, find } = setup();
    setCachedLike(queryClient, '2', { liked: true, likeCount: 7 });
    expect(findCachedPost(queryClient, '2')).toMatchObject({ liked: true, likeCount: 7 });
    expect(find(everyone, '2')).toMatchObject({ liked: true, likeCount: 7 });
    expect(find(byUser, '2')).toMatchObject({ liked: true, likeCount: 7 });
  });

  it('removes a deleted post from every list', () => {
    const { queryClient, everyone, byUser, read } = setup();
    removeCachedPost(queryClient, '2');
    expect(ids(read(everyone))).toEqual(['3', '1']);
    expect(ids(read(byUser))).toEqual([]);
  });

  it('puts the viewer’s own post on top of the loaded lists it belongs to', () => {
    const queryClient = new QueryClient();
    queryClient.setQueryData(postKeys.feed('following'), pages(['3']));
    queryClient.setQueryData(postKeys.feed('everyone'), pages(['3']));
    queryClient.setQueryData(postKeys.feed('everyone', 'news'), pages(['2']));
    queryClient.setQueryData(postKeys.feed('everyone', 'other'), pages(['1']));
    const post = makePostView({ id: '9', body: 'Hi #News' });
    addOwnPost(queryClient, post, ['news']);
    const top = (key: readonly unknown[]) => newestPostId(queryClient.getQueryData<PostPages>(key));
    expect(top(postKeys.feed('following'))).toBe('9');
    expect(top(postKeys.feed('everyone'))).toBe('9');
    expect(top(postKeys.feed('everyone', 'news'))).toBe('9');
    expect(top(postKeys.feed('everyone', 'other'))).toBe('1');
    // Lists never loaded stay unloaded: they will ask the server when shown.
    expect(queryClient.getQueryData(postKeys.byUser('u1'))).toBeUndefined();
    expect(queryClient.getQueryData(postKeys.detail('9'))).toBe(post);
  });
});
