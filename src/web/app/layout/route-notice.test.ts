import { describe, expect, it } from 'vitest';
import { noticeOf, withNotice } from './route-notice.js';

describe('route notices', () => {
  it('reads back the notice it wrote', () => {
    expect(noticeOf(withNotice('Your account was deleted.'))).toBe('Your account was deleted.');
  });

  it('is null for any other history state', () => {
    for (const state of [null, undefined, 'text', { notice: 3 }, { notice: '' }, {}]) {
      expect(noticeOf(state)).toBeNull();
    }
  });
});
