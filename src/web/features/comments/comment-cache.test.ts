import { QueryClient, type InfiniteData } from '@tanstack/react-query';
import { describe, expect, it } from 'vitest';
import type { Comment, Page, Thread } from '@shared/schemas/post.js';
import { makeComment, makeThread } from '@web/test/comment-fixtures.js';
import {
  addPosted,
  pendingPosted,
  rollBackLike,
  updateCommentEverywhere,
  updateCommentPages,
  updatePosted,
  updateThreadPages,
  withLike,
  withLikeState,
  withSaved,
  type PostedComment,
} from './comment-cache.js';
import { commentKeys } from './comment-keys.js';

function pages<T>(...lists: T[][]): InfiniteData<Page<T>> {
  return {
    pages: lists.map((items, index) => ({
      items,
      nextCursor: index < lists.length - 1 ? 'next' : null,
    })),
    pageParams: lists.map((_, index) => (index === 0 ? null : 'next')),
  };
}

const ids = (data: InfiniteData<Page<Comment>>) =>
  data.pages.flatMap((page) => page.items.map((item) => item.id));

describe('optimistic likes', () => {
  it('counts a new like and a taken-back like', () => {
    const liked = withLike(makeComment({ likeCount: 2 }), true);
    expect(liked).toMatchObject({ liked: true, likeCount: 3 });
    expect(withLike(liked, false)).toMatchObject({ liked: false, likeCount: 2 });
  });

  it('changes nothing when pressed into the state it is already in', () => {
    const comment = makeComment({ liked: true, likeCount: 1 });
    expect(withLike(comment, true)).toBe(comment);
  });

  it('never counts below zero', () => {
    expect(withLike(makeComment({ liked: true, likeCount: 0 }), false).likeCount).toBe(0);
  });

  it('rolls a failed press back', () => {
    const pressed = withLike(makeComment({ likeCount: 4 }), true);
    expect(rollBackLike(pressed, true)).toMatchObject({ liked: false, likeCount: 4 });
  });

  it('leaves a later press alone when an earlier one fails', () => {
    // Like, then unlike before the like's request fails: the unlike stands.
    const unliked = withLike(withLike(makeComment({ likeCount: 4 }), true), false);
    expect(rollBackLike(unliked, true)).toBe(unliked);
  });

  it("takes the server's count only while the button shows what was asked", () => {
    const pressed = withLike(makeComment({ likeCount: 1 }), true);
    expect(withLikeState(pressed, { liked: true, likeCount: 7 }).likeCount).toBe(7);
    const pressedAgain = withLike(pressed, false);
    expect(withLikeState(pressedAgain, { liked: true, likeCount: 7 })).toBe(pressedAgain);
  });
});

describe('updating every cached copy of a comment', () => {
  it('edits a top-level comment and keeps its loaded replies', () => {
    const data = pages([makeThread('1', ['2', '3'])]);
    const saved = makeComment({
      id: '1',
      body: 'Edited',
      editedAt: '2025-02-01T00:00:00.000Z',
      replyCount: 2,
    });
    const next = updateThreadPages(data, '1', withSaved(saved));
    expect(next.pages[0]?.items[0]).toMatchObject({ body: 'Edited', replyCount: 2 });
    expect(next.pages[0]?.items[0]?.replies.map((reply) => reply.id)).toEqual(['2', '3']);
  });

  it('removes a deleted reply from its thread and counts it out', () => {
    const data = pages([makeThread('1', ['2', '3'], 5)]);
    const thread = updateThreadPages(data, '3', () => null).pages[0]?.items[0];
    expect(thread?.replies.map((reply) => reply.id)).toEqual(['2']);
    expect(thread?.replyCount).toBe(4);
  });

  it('removes a deleted thread from whichever page holds it', () => {
    const data = pages([makeThread('1'), makeThread('2')], [makeThread('3')]);
    const next = updateThreadPages(data, '3', () => null);
    expect(next.pages.map((page) => page.items.map((item) => item.id))).toEqual([['1', '2'], []]);
    expect(next.pageParams).toEqual(data.pageParams);
  });

  it('patches and removes in reply pages', () => {
    const data = pages([makeComment({ id: '2' }), makeComment({ id: '3' })]);
    expect(ids(updateCommentPages(data, '2', () => null))).toEqual(['3']);
    const liked = updateCommentPages(data, '3', (comment) => withLike(comment, true));
    expect(liked.pages[0]?.items[1]?.liked).toBe(true);
  });

  it('takes the replies of a deleted new comment out of the recent list too', () => {
    const posted: PostedComment[] = [
      { comment: makeComment({ id: '5' }), postedAt: 1 },
      { comment: makeComment({ id: '6', parentId: '5' }), postedAt: 2 },
      { comment: makeComment({ id: '7', parentId: '1' }), postedAt: 3 },
    ];
    expect(updatePosted(posted, '5', () => null).map((entry) => entry.comment.id)).toEqual(['7']);
  });

  it('reaches threads, replies and recent comments through the query cache', () => {
    const queryClient = new QueryClient();
    const threadsKey = commentKeys.threads('9', 'u1');
    const repliesKey = commentKeys.replies('9', '1', 'u1');
    const postedKey = commentKeys.posted('9', 'u1');
    const otherPost = commentKeys.threads('8', 'u1');
    queryClient.setQueryData(threadsKey, pages([makeThread('1', ['2'])]));
    queryClient.setQueryData(repliesKey, pages([makeComment({ id: '2', parentId: '1' })]));
    queryClient.setQueryData<PostedComment[]>(postedKey, [
      { comment: makeComment({ id: '2', parentId: '1' }), postedAt: 1 },
    ]);
    queryClient.setQueryData(otherPost, pages([makeThread('1', ['2'])]));

    updateCommentEverywhere(queryClient, '9', '2', (comment) => withLike(comment, true));

    const threads = queryClient.getQueryData<InfiniteData<Page<Thread>>>(threadsKey);
    expect(threads?.pages[0]?.items[0]?.replies[0]?.liked).toBe(true);
    const replies = queryClient.getQueryData<InfiniteData<Page<Comment>>>(repliesKey);
    expect(replies?.pages[0]?.items[0]?.liked).toBe(true);
    expect(queryClient.getQueryData<PostedComment[]>(postedKey)?.[0]?.comment.liked).toBe(true);
    // Another post's comments share ids with nothing here.
    const other = queryClient.getQueryData<InfiniteData<Page<Thread>>>(otherPost);
    expect(other?.pages[0]?.items[0]?.replies[0]?.liked).toBe(false);
  });
});

describe("the viewer's new comments", () => {
  const mine = makeComment({ id: '40' });
  const myReply = makeComment({ id: '41', parentId: '1' });
  const posted = addPosted(addPosted(undefined, mine, 1_000), myReply, 2_000);

  it('are added once each, newest last', () => {
    expect(addPosted(posted, mine, 3_000).map((entry) => entry.comment.id)).toEqual(['41', '40']);
  });

  it('show under their own parent until the list has them', () => {
    const list = { complete: false, loadedAt: 5_000 };
    expect(pendingPosted(new Set(['1', '2']), posted, null, list)).toEqual([mine]);
    expect(pendingPosted(new Set(['1', '2']), posted, '1', list)).toEqual([myReply]);
    expect(pendingPosted(new Set(['1', '40']), posted, null, list)).toEqual([]);
  });

  it('still show when a complete list was read before they were written', () => {
    expect(pendingPosted(new Set(['1']), posted, null, { complete: true, loadedAt: 500 })).toEqual([
      mine,
    ]);
  });

  it('are taken as deleted when a complete list read afterwards lacks them', () => {
    expect(
      pendingPosted(new Set(['1']), posted, null, { complete: true, loadedAt: 1_500 }),
    ).toEqual([]);
  });
});
