import { describe, expect, it } from 'vitest';
import { fillPath } from '@shared/contract/endpoint.js';
import { commentEndpoints } from '@shared/contract/endpoints/comments.js';
import { stubJsonAnswer } from '@web/test/fetch-stub.js';
import { getComments } from './get-comments.js';
import { getReplies } from './get-replies.js';

const emptyPage = { items: [], nextCursor: null };

describe('reading comments', () => {
  it('asks for the first page of threads without a cursor, and later pages from one', async () => {
    const fetchMock = stubJsonAnswer(emptyPage);
    const path = fillPath(commentEndpoints.getComments.path, { postId: '7' });
    await expect(getComments('7', null)).resolves.toEqual(emptyPage);
    await getComments('7', '41');
    expect(fetchMock.mock.calls.map(([url]) => url)).toEqual([path, `${path}?cursor=41`]);
    expect(fetchMock.mock.calls[0]?.[1]?.method).toBe('GET');
  });

  it("asks for a thread's replies from a cursor", async () => {
    const fetchMock = stubJsonAnswer(emptyPage);
    await getReplies('9', '15');
    const path = fillPath(commentEndpoints.getCommentReplies.path, { commentId: '9' });
    expect(fetchMock.mock.calls[0]?.[0]).toBe(`${path}?cursor=15`);
  });

  it('refuses a page that does not match the contract', async () => {
    stubJsonAnswer({ items: [{ id: '1' }], nextCursor: null });
    await expect(getComments('7', null)).rejects.toMatchObject({ code: 'unexpected_response' });
  });
});
