import { describe, expect, it } from 'vitest';
import { makeNotificationGroup } from '@web/test/notification-fixtures.js';
import { hasUnread, listIsBehind, readMarkTarget } from './use-mark-shown-read.js';

const read = (id: string) => makeNotificationGroup({ id, unread: false });
const unread = (id: string) => makeNotificationGroup({ id, unread: true });

describe('hasUnread', () => {
  it('counts unread groups shown and the bell', () => {
    expect(hasUnread([unread('12'), read('9')], 0)).toBe(true);
    // The bell counts unread ones the list may not show (a like on the Mentions tab).
    expect(hasUnread([read('12')], 3)).toBe(true);
    expect(hasUnread([read('12')], 0)).toBe(false);
    expect(hasUnread([], 0)).toBe(false);
  });
});

describe('readMarkTarget', () => {
  it('marks up to the newest group shown when something is unread', () => {
    expect(readMarkTarget('12', true, null)).toBe('12');
  });

  it('marks nothing when all is read or nothing is shown', () => {
    expect(readMarkTarget('12', false, null)).toBeNull();
    expect(readMarkTarget(null, true, null)).toBeNull();
  });

  it('marks again only for a newer group, compared as numbers', () => {
    expect(readMarkTarget('12', true, '12')).toBeNull();
    expect(readMarkTarget('100', true, '99')).toBe('100');
    expect(readMarkTarget('99', true, '100')).toBeNull();
  });
});

describe('listIsBehind', () => {
  it('is behind when the bell knows a newer notification', () => {
    expect(listIsBehind('100', '99')).toBe(true);
    expect(listIsBehind('5', null)).toBe(true);
  });

  it('is current otherwise', () => {
    expect(listIsBehind('99', '100')).toBe(false);
    expect(listIsBehind('99', '99')).toBe(false);
    expect(listIsBehind(null, '99')).toBe(false);
    expect(listIsBehind(undefined, null)).toBe(false);
  });
});
