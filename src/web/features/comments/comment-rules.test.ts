import { describe, expect, it } from 'vitest';
import { makeComment as baseComment } from '@web/test/comment-fixtures.js';
import { makeAuthor } from '@web/test/post-fixtures.js';
import {
  canDeleteComment,
  canEditComment,
  replyTarget,
  withMention,
  type CommentViewer,
} from './comment-rules.js';

/** A comment by @ada (uid "author"). */
const makeComment = (overrides: Parameters<typeof baseComment>[0] = {}) =>
  baseComment({ author: makeAuthor({ uid: 'author', username: 'ada' }), ...overrides });

const viewer = (overrides: Partial<CommentViewer> = {}): CommentViewer => ({
  uid: 'author',
  isAdmin: false,
  active: true,
  ...overrides,
});

describe('who may edit and delete a comment', () => {
  const comment = makeComment();

  it('lets the author edit and delete', () => {
    expect(canEditComment(viewer(), comment)).toBe(true);
    expect(canDeleteComment(viewer(), comment, 'post-author')).toBe(true);
  });

  it("lets the post's author and administrators delete, not edit", () => {
    const postAuthor = viewer({ uid: 'post-author' });
    expect(canDeleteComment(postAuthor, comment, 'post-author')).toBe(true);
    expect(canEditComment(postAuthor, comment)).toBe(false);
    const admin = viewer({ uid: 'admin', isAdmin: true });
    expect(canDeleteComment(admin, comment, 'post-author')).toBe(true);
    expect(canEditComment(admin, comment)).toBe(false);
  });

  it('lets nobody else, no inactive account and no signed-out reader do either', () => {
    expect(canDeleteComment(viewer({ uid: 'other' }), comment, 'post-author')).toBe(false);
    expect(canEditComment(viewer({ active: false }), comment)).toBe(false);
    expect(canDeleteComment(viewer({ active: false }), comment, 'post-author')).toBe(false);
    expect(canEditComment(null, comment)).toBe(false);
    expect(canDeleteComment(undefined, comment, 'post-author')).toBe(false);
  });
});

describe('replies (one level deep)', () => {
  it('join the thread of a top-level comment without a mention', () => {
    expect(replyTarget(makeComment({ id: '5' }), viewer({ uid: 'me' }))).toEqual({
      threadId: '5',
      mention: null,
    });
  });

  it('to a reply join the same thread and greet its author', () => {
    const reply = makeComment({ id: '6', parentId: '5' });
    expect(replyTarget(reply, viewer({ uid: 'me' }))).toEqual({ threadId: '5', mention: 'ada' });
  });

  it('to one of your own replies, or to someone without a username, greet nobody', () => {
    const reply = makeComment({ id: '6', parentId: '5' });
    expect(replyTarget(reply, viewer()).mention).toBeNull();
    const nameless = makeComment({
      id: '7',
      parentId: '5',
      author: makeAuthor({ uid: 'x', username: null }),
    });
    expect(replyTarget(nameless, viewer({ uid: 'me' })).mention).toBeNull();
  });
});

describe('withMention (prefilling a reply)', () => {
  it('starts an empty draft with the mention and a space', () => {
    expect(withMention('', 'ada')).toBe('@ada ');
    expect(withMention('   ', 'ada')).toBe('@ada ');
  });

  it('keeps what was typed, after the mention', () => {
    expect(withMention('I agree', 'ada')).toBe('@ada I agree');
  });

  it('adds a second person to a draft that greets someone else', () => {
    expect(withMention('@bob thanks', 'ada')).toBe('@ada @bob thanks');
  });

  it('does not greet the same person twice', () => {
    expect(withMention('@ada thanks', 'ada')).toBe('@ada thanks');
    expect(withMention('Thanks, @Ada!', 'ada')).toBe('Thanks, @Ada!');
  });

  it('does not mistake a longer name for the same person', () => {
    expect(withMention('@adam hi', 'ada')).toBe('@ada @adam hi');
  });

  it('leaves the draft alone when there is nobody to greet', () => {
    expect(withMention('hello', null)).toBe('hello');
  });
});
