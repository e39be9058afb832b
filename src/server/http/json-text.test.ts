import { describe, expect, it } from 'vitest';
import { postPageSchema, postViewSchema, type PostView } from '../../shared/schemas/post.js';
import { makePostView } from '../../shared/test/post-fixtures.js';
import { memoisedJson, pageJson } from './json-text.js';
import { responseSerializerCompiler, wireSchema } from './serializer.js';

const pageSerializer = responseSerializerCompiler()({
  schema: postPageSchema,
  method: 'GET',
  url: '/api/feed',
});

describe('a list page written from its items’ texts', () => {
  it('is the text the page’s own serializer writes, byte for byte', () => {
    expect(wireSchema(postViewSchema)).not.toBeNull();
    const postJson = memoisedJson(postViewSchema);
    const pages = [
      { items: [], nextCursor: null },
      { items: [makePostView({ id: '7', liked: true })], nextCursor: '7' },
      {
        items: [
          makePostView({ id: '9', body: 'Quote " and \\ and \u2028 and émoji 🔥', likeCount: 3 }),
          makePostView({ id: '8', editedAt: '2026-01-02T03:04:05.000Z', liked: false }),
        ],
        nextCursor: null,
      },
    ];
    for (const page of pages) {
      expect(pageJson(page, postJson).text).toBe(pageSerializer(page));
    }
  });

  it('drops what the contract does not declare, as the page’s serializer does', () => {
    const postJson = memoisedJson(postViewSchema);
    const post = makePostView({ id: '5' });
    const leaky = {
      ...post,
      authorEmail: 'ana@example.com',
      author: { ...post.author, passwordHash: 'x' },
    } as PostView;
    const text = pageJson({ items: [leaky], nextCursor: null }, postJson).text;
    expect(text).not.toContain('ana@example.com');
    expect(text).not.toContain('passwordHash');
    expect(JSON.parse(text)).toEqual({ items: [post], nextCursor: null });
  });

  it('writes each value once while it lives, and a changed copy afresh', () => {
    const postJson = memoisedJson(postViewSchema);
    const post = makePostView({ id: '3', likeCount: 1 });
    const first = postJson(post);
    // Written once: the text kept is the one returned, even for a value changed since (which the
    // documents and views never are).
    post.likeCount = 99;
    expect(postJson(post)).toBe(first);
    expect(JSON.parse(first)).toMatchObject({ likeCount: 1, liked: false });
    const liked = { ...post, likeCount: 2, liked: true };
    expect(JSON.parse(postJson(liked))).toMatchObject({ likeCount: 2, liked: true });
  });
});
