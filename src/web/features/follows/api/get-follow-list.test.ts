import { describe, expect, it } from 'vitest';
import { fillPath } from '@shared/contract/endpoint.js';
import { followEndpoints } from '@shared/contract/endpoints/follows.js';
import type { FollowListItem } from '@shared/schemas/follow.js';
import { stubJsonAnswer } from '@web/test/fetch-stub.js';
import { makeAuthor } from '@web/test/post-fixtures.js';
import { getFollowList } from './get-follow-list.js';

const person: FollowListItem = {
  ...makeAuthor({ uid: 'u2', username: 'bo' }),
  relationship: { following: true, followedBy: false },
};

describe('getFollowList', () => {
  it('reads followers or following by kind, from a cursor when one is given', async () => {
    const page = { items: [person], nextCursor: '30' };
    const fetchMock = stubJsonAnswer(page);
    await expect(getFollowList('u1', 'followers', null)).resolves.toEqual(page);
    await getFollowList('u1', 'following', '30');
    expect(fetchMock.mock.calls.map(([url]) => url)).toEqual([
      fillPath(followEndpoints.getFollowers.path, { uid: 'u1' }),
      `${fillPath(followEndpoints.getFollowing.path, { uid: 'u1' })}?cursor=30`,
    ]);
  });

  it('refuses a page that does not match the contract', async () => {
    stubJsonAnswer({ items: [{ ...person, relationship: 'friends' }], nextCursor: null });
    await expect(getFollowList('u1', 'followers', null)).rejects.toMatchObject({
      code: 'unexpected_response',
    });
  });
});
