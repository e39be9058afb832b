import { describe, expect, it } from 'vitest';
import type { NotificationKind, NotificationModeration } from '@shared/schemas/notification.js';
import { makeAuthor } from '@web/test/post-fixtures.js';
import { makeNotificationGroup } from '@web/test/notification-fixtures.js';
import {
  notificationExcerpt,
  notificationHref,
  notificationSentence,
  untilPhrase,
} from './notification-sentence.js';

function moderation(overrides: Partial<NotificationModeration> = {}): NotificationModeration {
  return {
    subjectId: '5',
    reason: null,
    outcome: null,
    until: null,
    accepted: null,
    targetKind: null,
    excerpt: null,
    ...overrides,
  };
}

/** A moderators' notification: no people behind it, as the server sends them. */
const fromModerators = (kind: NotificationKind, m = moderation()) =>
  makeNotificationGroup({ kind, actors: [], actorCount: 0, post: null, moderation: m });

describe('moderation notifications', () => {
  it('speak as "The moderators", never naming who acted', () => {
    expect(notificationSentence(fromModerators('warning', moderation({ reason: 'Be kind' })))).toBe(
      'The moderators sent you a warning',
    );
    expect(notificationSentence(fromModerators('suspension_lifted'))).toBe(
      'The moderators lifted the suspension of your account',
    );
    expect(
      notificationSentence(
        fromModerators('content_removed', moderation({ targetKind: 'comment' })),
      ),
    ).toBe('The moderators removed your comment');
  });

  it('tell a reporter the outcome of their report', () => {
    const outcome = (value: NotificationModeration['outcome'], targetKind = 'post' as const) =>
      notificationSentence(
        fromModerators('report_resolved', moderation({ outcome: value, targetKind })),
      );
    expect(outcome('removed')).toBe('The moderators removed the post you reported');
    expect(outcome('warned')).toBe('The moderators warned the author of the post you reported');
    expect(outcome('suspended')).toBe(
      'The moderators suspended the author of the post you reported',
    );
    expect(outcome('dismissed')).toBe(
      'The moderators looked at the post you reported and found no reason to act',
    );
  });

  it('say until when a suspension lasts, or that it is indefinite', () => {
    expect(notificationSentence(fromModerators('suspension'))).toBe(
      'The moderators suspended your account indefinitely',
    );
    expect(untilPhrase('2025-05-04T12:00:00.000Z')).toMatch(/^until \d+ May 2025/);
  });

  it('say whether an appeal was accepted', () => {
    expect(
      notificationSentence(fromModerators('appeal_decided', moderation({ accepted: true }))),
    ).toBe('The moderators accepted your appeal');
    expect(
      notificationSentence(fromModerators('appeal_decided', moderation({ accepted: false }))),
    ).toBe('The moderators rejected your appeal');
  });

  it('name the person for the staff kinds, and lead to the console', () => {
    const bo = makeAuthor({ uid: 'b', username: 'bo', firstName: 'Bo', lastName: null });
    const report = makeNotificationGroup({
      kind: 'new_report',
      actors: [bo],
      post: null,
      moderation: moderation({ targetKind: 'post', excerpt: 'Buy now' }),
    });
    expect(notificationSentence(report)).toBe('Bo was reported for a post');
    expect(notificationExcerpt(report)).toBe('Buy now');
    expect(notificationHref(report)).toBe('/admin/reports');
    expect(notificationHref({ ...report, kind: 'new_appeal' })).toBe('/admin/reports?tab=appeals');
    expect(notificationHref({ ...report, kind: 'signup_pending' })).toBe(
      '/admin/users?state=pending',
    );
  });

  it('lead the person to their suspension page, their reports, or the removed post', () => {
    expect(notificationHref(fromModerators('suspension'))).toBe('/settings/suspension');
    expect(notificationHref(fromModerators('report_resolved'))).toBe('/notifications?tab=reports');
    expect(
      notificationHref({ ...fromModerators('content_removed'), post: { id: '9', excerpt: '' } }),
    ).toBe('/post/9');
    expect(notificationHref(fromModerators('warning'))).toBeNull();
  });
});
