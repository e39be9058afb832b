import { describe, expect, it } from 'vitest';
import { fillPath } from '@shared/contract/endpoint.js';
import { commentEndpoints } from '@shared/contract/endpoints/comments.js';
import { jsonResponse, stubFetch } from '@web/test/fetch-stub.js';
import { likeComment } from './like-comment.js';

describe('likeComment', () => {
  it('likes with PUT and takes the like back with DELETE, answering the new state', async () => {
    const fetchMock = stubFetch((_url, init) => {
      const liked = init?.method === 'PUT';
      return Promise.resolve(jsonResponse({ liked, likeCount: liked ? 1 : 0 }));
    });
    await expect(likeComment({ commentId: '9', liked: true })).resolves.toEqual({
      liked: true,
      likeCount: 1,
    });
    await expect(likeComment({ commentId: '9', liked: false })).resolves.toEqual({
      liked: false,
      likeCount: 0,
    });
    const path = fillPath(commentEndpoints.likeComment.path, { commentId: '9' });
    expect(fetchMock.mock.calls.map(([url, init]) => [url, init?.method])).toEqual([
      [path, 'PUT'],
      [path, 'DELETE'],
    ]);
  });
});
