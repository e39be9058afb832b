import { describe, expect, it } from 'vitest';
import { stubJsonAnswer } from '@web/test/fetch-stub.js';
import { makePostView } from '@web/test/post-fixtures.js';
import { createPost } from './create-post.js';

const image = (name: string) => new File([new Uint8Array([1, 2, 3])], name, { type: 'image/png' });

const post = makePostView();

describe('createPost', () => {
  it('sends text alone as JSON', async () => {
    const fetchMock = stubJsonAnswer(post, 201);
    await expect(createPost({ body: 'Hello', images: [] })).resolves.toEqual(post);
    const [url, init] = fetchMock.mock.calls[0] ?? [];
    expect(url).toBe('/api/posts');
    expect(init?.method).toBe('POST');
    expect(init?.body).toBe(JSON.stringify({ body: 'Hello' }));
  });

  it('sends the text, then the descriptions, then the files, by position', async () => {
    const fetchMock = stubJsonAnswer(post, 201);
    await createPost({
      body: 'Hello',
      images: [
        { file: image('a.png'), alt: '  A red square ' },
        { file: image('b.png'), alt: '' },
      ],
    });
    const form = fetchMock.mock.calls[0]?.[1]?.body;
    expect(form).toBeInstanceOf(FormData);
    if (!(form instanceof FormData)) return;
    expect([...form.keys()]).toEqual(['body', 'alt0', 'image0', 'image1']);
    expect(form.get('alt0')).toBe('A red square');
    const second = form.get('image1');
    expect(second instanceof File ? second.name : null).toBe('b.png');
  });

  it('refuses an answer that does not match the contract', async () => {
    stubJsonAnswer({ ...post, likeCount: 'many' }, 201);
    await expect(createPost({ body: 'Hello', images: [] })).rejects.toMatchObject({
      code: 'unexpected_response',
    });
  });
});
