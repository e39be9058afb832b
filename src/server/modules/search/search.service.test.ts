import { describe, expect, it } from 'vitest';
import type { PostsService } from '../posts/posts.service.js';
import type { PostSearch, SearchRepository, TagUse } from './search.repository.js';
import { SearchService } from './search.service.js';

/** A repository that counts the day's tags from a list the test changes, and records what it was asked. */
function fakeRepository(tags: TagUse[]) {
  const calls: { since: string; limit: number }[] = [];
  const searches: PostSearch[] = [];
  let failNext = false;
  const repository = {
    trendingTags(since: string, limit: number) {
      calls.push({ since, limit });
      if (failNext) {
        failNext = false;
        return Promise.reject(new Error('database unreachable'));
      }
      return Promise.resolve(tags.map((tag) => ({ ...tag })));
    },
    userIdByUsername: (username: string) => Promise.resolve(username === 'ana' ? 'uid-ana' : null),
    postIds(search: PostSearch) {
      searches.push(search);
      return Promise.resolve([]);
    },
  } as unknown as SearchRepository;
  return { repository, calls, searches, failNext: () => (failNext = true) };
}

const postViews = { viewsInOrder: () => Promise.resolve([]) } as unknown as PostsService;

describe('SearchService', () => {
  it("counts the day's tags at most once a minute, and again after a failure", async () => {
    const tags: TagUse[] = [{ tag: 'bread', posts: 3, people: 2 }];
    const fake = fakeRepository(tags);
    let now = Date.parse('2026-03-01T12:00:00.000Z');
    const service = new SearchService(
      fake.repository,
      postViews,
      (key) => key,
      () => now,
    );

    expect(await service.trendingTags()).toEqual({
      items: [{ tag: 'bread', posts: 3, people: 2 }],
    });
    expect(fake.calls).toEqual([{ since: '2026-02-28T12:00:00.000Z', limit: 20 }]);
    tags.push({ tag: 'river', posts: 1, people: 1 });
    now += 59_000;
    expect((await service.trendingTags()).items).toHaveLength(1);
    expect(fake.calls).toHaveLength(1);

    now += 1_000;
    fake.failNext();
    await expect(service.trendingTags()).rejects.toThrow('database unreachable');
    expect((await service.trendingTags()).items.map((item) => item.tag)).toEqual([
      'bread',
      'river',
    ]);
    expect(fake.calls).toHaveLength(3);
  });

  it('leaves out tags the search box could not ask for', async () => {
    const fake = fakeRepository([
      { tag: 'bread🍞', posts: 9, people: 3 },
      { tag: 'bread', posts: 2, people: 1 },
    ]);
    const service = new SearchService(fake.repository, postViews, (key) => key);
    expect((await service.trendingTags()).items.map((item) => item.tag)).toEqual(['bread']);
  });

  it('asks for one more result than the page, and never past the deepest result', async () => {
    const fake = fakeRepository([]);
    const service = new SearchService(fake.repository, postViews, (key) => key);
    await service.posts(null, { q: 'from:ana bread', limit: 20, cursor: '490' });
    expect(fake.searches).toMatchObject([
      { authorId: 'uid-ana', words: ['bread'], prefix: true, offset: 490, limit: 11 },
    ]);
    expect(await service.posts(null, { q: 'bread', limit: 20, cursor: '500' })).toEqual({
      items: [],
      nextCursor: null,
    });
    expect(await service.posts(null, { q: 'from:nobody bread', limit: 20 })).toEqual({
      items: [],
      nextCursor: null,
    });
    expect(fake.searches).toHaveLength(1);
  });
});
