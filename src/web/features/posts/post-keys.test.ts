import { describe, expect, it } from 'vitest';
import { postKeys } from './post-keys.js';

describe('post keys', () => {
  it('keep every feed under the lists, where cached copies of a post are patched', () => {
    const lists = postKeys.lists();
    for (const key of [
      postKeys.feeds(),
      postKeys.feed('following'),
      postKeys.feed('everyone', 'x'),
    ]) {
      expect(key.slice(0, lists.length)).toEqual(lists);
    }
    expect(postKeys.feed('everyone')).toEqual([...postKeys.feeds(), 'everyone', '']);
  });
});
