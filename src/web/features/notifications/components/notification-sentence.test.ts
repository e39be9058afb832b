import { describe, expect, it } from 'vitest';
import { makeAuthor } from '@web/test/post-fixtures.js';
import { makeNotificationGroup } from '@web/test/notification-fixtures.js';
import {
  actorPhrase,
  notificationExcerpt,
  notificationHref,
  notificationSentence,
} from './notification-sentence.js';

const ana = makeAuthor({ uid: 'a', username: 'ana', firstName: 'Ana', lastName: null });
const bo = makeAuthor({ uid: 'b', username: 'bo', firstName: 'Bo', lastName: null });
const cy = makeAuthor({ uid: 'c', username: 'cy', firstName: 'Cy', lastName: null });

describe('actorPhrase', () => {
  it('names one, two or three people', () => {
    expect(actorPhrase(['Ana'], 1)).toBe('Ana');
    expect(actorPhrase(['Ana', 'Bo'], 2)).toBe('Ana and Bo');
    expect(actorPhrase(['Ana', 'Bo', 'Cy'], 3)).toBe('Ana, Bo and Cy');
  });

  it('names two and counts the rest past three', () => {
    expect(actorPhrase(['Ana', 'Bo', 'Cy'], 14)).toBe('Ana, Bo and 12 others');
    expect(actorPhrase(['Ana', 'Bo', 'Cy'], 4)).toBe('Ana, Bo and 2 others');
    expect(actorPhrase(['Ana', 'Bo', 'Cy'], 1203)).toBe('Ana, Bo and 1,201 others');
  });

  it('counts the people it cannot name, in the singular when there is one', () => {
    expect(actorPhrase(['Ana'], 13)).toBe('Ana and 12 others');
    expect(actorPhrase(['Ana'], 2)).toBe('Ana and 1 other');
  });

  it('never reads as nobody', () => {
    expect(actorPhrase([], 0)).toBe('Someone');
    expect(actorPhrase([], 3)).toBe('Someone and 2 others');
  });
});

describe('notificationSentence', () => {
  it('groups likes of one post', () => {
    const group = makeNotificationGroup({ kind: 'like', actors: [ana, bo, cy], actorCount: 14 });
    expect(notificationSentence(group)).toBe('Ana, Bo and 12 others liked your post');
  });

  it('says what each kind is', () => {
    const one = { actors: [ana], actorCount: 1 };
    const comment = { id: '5', postId: '9', excerpt: 'Nice one' };
    expect(
      notificationSentence(makeNotificationGroup({ ...one, kind: 'follow', post: null })),
    ).toBe('Ana followed you');
    expect(notificationSentence(makeNotificationGroup({ ...one, kind: 'reply', comment }))).toBe(
      'Ana replied to your comment',
    );
    expect(notificationSentence(makeNotificationGroup({ ...one, kind: 'comment', comment }))).toBe(
      'Ana commented on your post',
    );
    expect(
      notificationSentence(makeNotificationGroup({ ...one, kind: 'comment_like', comment })),
    ).toBe('Ana liked your comment');
    expect(notificationSentence(makeNotificationGroup({ ...one, kind: 'mention' }))).toBe(
      'Ana mentioned you in a post',
    );
    expect(notificationSentence(makeNotificationGroup({ ...one, kind: 'mention', comment }))).toBe(
      'Ana mentioned you in a comment',
    );
  });

  it('uses the display-name rule', () => {
    const named = makeAuthor({ firstName: 'Ada', lastName: 'Lovelace' });
    const bare = makeAuthor({ uid: 'x', firstName: null, lastName: null, username: 'zed' });
    expect(
      notificationSentence(makeNotificationGroup({ actors: [named, bare], actorCount: 2 })),
    ).toBe('Ada Lovelace and zed liked your post');
  });
});

describe('notificationExcerpt', () => {
  const post = { id: '9', excerpt: 'The post' };
  const comment = { id: '5', postId: '9', excerpt: 'The comment' };

  it('quotes the comment for comment kinds and the post for post likes', () => {
    expect(notificationExcerpt(makeNotificationGroup({ kind: 'like', post, comment: null }))).toBe(
      'The post',
    );
    expect(notificationExcerpt(makeNotificationGroup({ kind: 'reply', post, comment }))).toBe(
      'The comment',
    );
    expect(
      notificationExcerpt(makeNotificationGroup({ kind: 'mention', post, comment: null })),
    ).toBe('The post');
  });

  it('quotes nothing for follows', () => {
    expect(notificationExcerpt(makeNotificationGroup({ kind: 'follow', post: null }))).toBe('');
  });
});

describe('notificationHref', () => {
  it('leads a follow to the newest follower', () => {
    const group = makeNotificationGroup({ kind: 'follow', actors: [bo, ana], post: null });
    expect(notificationHref(group)).toBe('/bo');
  });

  it('leads everything else to the post', () => {
    expect(
      notificationHref(makeNotificationGroup({ kind: 'like', post: { id: '42', excerpt: '' } })),
    ).toBe('/post/42');
    const comment = { id: '5', postId: '77', excerpt: 'x' };
    expect(
      notificationHref(makeNotificationGroup({ kind: 'comment_like', post: null, comment })),
    ).toBe('/post/77');
  });

  it('has nowhere to go when the thing is gone', () => {
    expect(
      notificationHref(makeNotificationGroup({ kind: 'like', post: null, comment: null })),
    ).toBe(null);
  });
});
