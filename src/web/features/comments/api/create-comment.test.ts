import { describe, expect, it } from 'vitest';
import { fillPath } from '@shared/contract/endpoint.js';
import { commentEndpoints } from '@shared/contract/endpoints/comments.js';
import { makeComment } from '@web/test/comment-fixtures.js';
import { stubJsonAnswer } from '@web/test/fetch-stub.js';
import { createComment } from './create-comment.js';

const comment = makeComment({ id: '12', postId: '7', parentId: '9', body: 'Agreed' });

describe('createComment', () => {
  it("posts the text and the parent as JSON to the post's comments", async () => {
    const fetchMock = stubJsonAnswer(comment, 201);
    await expect(createComment({ postId: '7', body: 'Agreed', parentId: '9' })).resolves.toEqual(
      comment,
    );
    const [url, init] = fetchMock.mock.calls[0] ?? [];
    expect(url).toBe(fillPath(commentEndpoints.createComment.path, { postId: '7' }));
    expect(init?.method).toBe('POST');
    expect(init?.body).toBe(JSON.stringify({ body: 'Agreed', parentId: '9' }));
  });

  it('keeps field errors of a refused comment', async () => {
    const message = 'You can only reply to a comment on the same post.';
    stubJsonAnswer(
      { error: { code: 'validation_failed', message, fields: { parentId: message } } },
      400,
    );
    await expect(createComment({ postId: '7', body: 'Hi', parentId: '3' })).rejects.toMatchObject({
      status: 400,
      fields: { parentId: message },
    });
  });

  it('refuses an answer that does not match the contract', async () => {
    stubJsonAnswer({ ...comment, replyCount: 'none' }, 201);
    await expect(createComment({ postId: '7', body: 'Agreed' })).rejects.toMatchObject({
      code: 'unexpected_response',
    });
  });
});
