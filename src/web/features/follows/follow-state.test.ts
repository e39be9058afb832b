import { describe, expect, it } from 'vitest';
import { rollBackFollowing, withFollowing } from './follow-state.js';

describe('optimistic follows', () => {
  it('shows the new state at once and keeps whether they follow back', () => {
    expect(withFollowing({ following: false, followedBy: true }, true)).toEqual({
      following: true,
      followedBy: true,
    });
    expect(withFollowing(undefined, true)).toEqual({ following: true, followedBy: false });
  });

  it('rolls a failed press back', () => {
    expect(rollBackFollowing({ following: true, followedBy: false }, true)).toEqual({
      following: false,
      followedBy: false,
    });
  });

  it('leaves a later press alone when an earlier one fails', () => {
    // Follow, then unfollow before the follow's request fails: the unfollow stands.
    const later = { following: false, followedBy: false };
    expect(rollBackFollowing(later, true)).toBe(later);
    expect(rollBackFollowing(undefined, true)).toBeUndefined();
  });
});
