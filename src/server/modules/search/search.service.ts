import { limits } from '../../../shared/limits.js';
import {
  hashtagSchema,
  type Author,
  type Page,
  type PostView,
} from '../../../shared/schemas/post.js';
import type { PostSearchQuery, TrendingTag } from '../../../shared/schemas/search.js';
import { isSearchable, parseSearchQuery, searchableText } from '../../../shared/search-query.js';
import { Invalid } from '../../errors.js';
import type { Viewer } from '../../plugins/viewer.js';
import type { PostsService } from '../posts/posts.service.js';
import { presentAuthor } from '../users/authors.presenter.js';
import type { SearchRepository } from './search.repository.js';

/** How long the day's tags are reused before they are counted again. */
const trendingTtlMs = 60_000;
const dayMs = 24 * 60 * 60 * 1000;

const nothingToSearch = () => {
  const message = 'Search for a word, a "phrase", from:username or a #tag.';
  return new Invalid(message, { q: message });
};

/** People, posts and tags (issue: notifications and search §3). */
export class SearchService {
  /** The day's tags, counted at most once a minute per process: one value, so bounded. */
  private trending: { until: number; value: Promise<TrendingTag[]> } | null = null;

  constructor(
    private readonly search: SearchRepository,
    private readonly postViews: PostsService,
    private readonly mediaUrl: (key: string) => string,
    private readonly clock: () => number = Date.now,
  ) {}

  /** People by a prefix of their username or names, as they are typed; a leading `@` is ignored. */
  async people(
    q: string,
    limit: number,
    viewer: Viewer | null = null,
  ): Promise<{ items: Author[] }> {
    const prefix = searchableText(q).replace(/^@+/u, '').trim().replace(/\s+/gu, ' ');
    if (prefix === '') throw nothingToSearch();
    // People who block the viewer, or whom they block, are not found (ADR 0022).
    const rows = await this.search.people(prefix, limit, viewer?.uid);
    return { items: rows.map((row) => presentAuthor(row, this.mediaUrl)) };
  }

  /**
   * Posts ranked by relevance and recency; with only `from:` or `#tag`, that person's or tag's posts,
   * newest first. The cursor is a position in the ranking, which goes `limits.search.maxResults` deep.
   */
  async posts(viewer: Viewer | null, query: PostSearchQuery): Promise<Page<PostView>> {
    const parsed = parseSearchQuery(query.q);
    if (!isSearchable(parsed)) throw nothingToSearch();
    const offset = query.cursor === undefined ? 0 : Number(query.cursor);
    const limit = Math.min(query.limit, limits.search.maxResults - offset);
    if (limit <= 0) return { items: [], nextCursor: null };
    let authorId: string | null = null;
    if (parsed.from !== null) {
      authorId = await this.search.userIdByUsername(parsed.from);
      // Nobody by that name has written anything.
      if (authorId === null) return { items: [], nextCursor: null };
    }
    const ids = await this.search.postIds({
      words: parsed.words,
      phrases: parsed.phrases,
      prefix: parsed.prefix,
      authorId,
      tags: parsed.tags,
      offset,
      // One more than the page, to learn whether another follows.
      limit: limit + 1,
      now: new Date(this.clock()).toISOString(),
      ...(viewer ? { viewerId: viewer.uid } : {}),
    });
    const more = ids.length > limit && offset + limit < limits.search.maxResults;
    const items = await this.postViews.viewsInOrder(viewer, ids.slice(0, limit));
    return { items, nextCursor: more ? String(offset + limit) : null };
  }

  /** The day's most used tags, from a count at most a minute old. */
  async trendingTags(): Promise<{ items: TrendingTag[] }> {
    const now = this.clock();
    if (!this.trending || this.trending.until <= now) {
      const value = this.search
        // Tags that the search box could not ask for (an emoji in one, say) are skipped, hence a few more.
        .trendingTags(new Date(now - dayMs).toISOString(), limits.search.trendingTags * 2)
        .then((tags) =>
          tags
            .filter(({ tag }) => hashtagSchema.safeParse(tag).success)
            .slice(0, limits.search.trendingTags),
        );
      const entry = { until: now + trendingTtlMs, value };
      this.trending = entry;
      // A failed count is not kept: the next request counts again.
      value.catch(() => {
        if (this.trending === entry) this.trending = null;
      });
    }
    return { items: await this.trending.value };
  }
}
