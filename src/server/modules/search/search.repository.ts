import { sql, type Kysely, type RawBuilder } from 'kysely';
import type { Dialect } from '../../db/database.js';
import { plannedForItsValues } from '../../db/postgres-statements.js';
import type { Database } from '../../db/schema.js';
import { toCount, toId } from '../../db/values.js';
import type { SearchBacklog } from './search-backlog.js';
import {
  foldForSearch,
  rankMatches,
  recencyDays,
  searchTokens,
  type RankCandidate,
  type RankTerm,
} from './search-ranking.js';
import {
  authorAvatarRenditions,
  authorSelection,
  type AuthorColumns,
} from '../users/authors.repository.js';
import { notBlockedEitherWay, visibleAuthor } from '../relationships/hidden.repository.js';

/** A post search as the service resolved it: the parsed words, and `from:` as an account id. */
export interface PostSearch {
  words: readonly string[];
  phrases: readonly string[];
  /** The last word may be unfinished and matches as a prefix. */
  prefix: boolean;
  authorId: string | null;
  tags: readonly string[];
  /** Position in the ranking of the first result, and how many to read from there. */
  offset: number;
  limit: number;
  /** The moment recency is measured from. */
  now: string;
  /** The signed-in reader: posts of people hidden from them are left out (ADR 0022). */
  viewerId?: string;
}

/** A tag of the day: on how many posts, by how many people. */
export interface TagUse {
  tag: string;
  posts: number;
  people: number;
}

/**
 * Full-text matches ranked by relevance alone would need every match scored: tens of thousands for a common
 * word. Ranking reads only this many of the newest matches (ADR 0018), twice as many as results go deep,
 * so a rare word's matches are all ranked and a common word's are the recent ones.
 */
export const rankedMatchesMax = 1_000;

/**
 * PostgreSQL's sample of a prefix search: how many of the newest posts it looks at, and how many must
 * match for the newest-first walk. At 3% the walk reads about 33,000 posts to find its 1,000 matches, and
 * on a million posts the GIN index holds about 30,000: below it, the index costs less, and for a rare
 * prefix (100 matches) about 1 ms instead of a read of every post.
 */
export const prefixProbe = { posts: 1_000, dense: 30 };
/** At most this many words an unfinished last word may become are matched by name (SQLite, ADR 0043). */
export const completionsMax = 64;
/** How long the words a prefix may become are kept, and for how many prefixes. */
export const completionTtlMs = 30_000;
const completionCacheMax = 1_000;
/** How far apart the clocks of instances writing posts may be. */
const clockSkewMs = 60 * 60 * 1000;
/** A last word shorter than this matches whole: a one-letter prefix would match most of the index. */
const prefixMin = 2;

/** `%`, `_` and the escape character itself are literal in a LIKE pattern after this. */
function likePrefix(text: string): string {
  return `${text.replace(/[\\%_]/g, (character) => `\\${character}`)}%`;
}

/** A FTS5 string: the tokenizer reads its inside as text, whatever it holds; `"` is doubled. */
function fts5String(text: string): string {
  return `"${text.replaceAll('"', '""')}"`;
}

/** A tsquery lexeme in quotes, whose inside to_tsquery hands to the parser as text. */
function tsqueryLexeme(text: string): string {
  return `'${text.replace(/['\\]/g, (character) => (character === "'" ? "''" : '\\\\'))}'`;
}

/** Whether the search's last word matches as a prefix. */
function prefixWord(search: PostSearch): string | null {
  const last = search.words.at(-1);
  return search.prefix && last !== undefined && Array.from(last).length >= prefixMin ? last : null;
}

/**
 * The only place that reads for search. One interface; the full-text part differs by dialect (SQLite FTS5,
 * PostgreSQL tsvector), the rest is shared.
 */
export abstract class SearchRepository {
  constructor(protected readonly db: Kysely<Database>) {}

  /** The account with this (lower-case) username, if any. */
  async userIdByUsername(username: string): Promise<string | null> {
    const row = await this.db
      .selectFrom('users')
      .select('id')
      .where('username', '=', username)
      .executeTakeFirst();
    return row?.id ?? null;
  }

  /** Ids of the posts found, in ranking order. */
  postIds(search: PostSearch): Promise<string[]> {
    if (search.words.length === 0 && search.phrases.length === 0) return this.newest(search);
    return this.fullText(search);
  }

  /** Posts of a person or with tags, and no words: newest first. */
  private async newest(search: PostSearch): Promise<string[]> {
    const [firstTag, ...otherTags] = search.tags;
    if (firstTag === undefined) {
      if (search.authorId === null) return [];
      const rows = await this.db
        .selectFrom('posts')
        .select('id')
        .where('authorId', '=', search.authorId)
        .$if(search.viewerId !== undefined, (query) =>
          query.where(visibleAuthor(search.viewerId ?? '', 'posts.authorId')),
        )
        .orderBy('id', 'desc')
        .limit(search.limit)
        .offset(search.offset)
        .execute();
      return rows.map((row) => toId(row.id));
    }
    // The first tag's rows are walked newest first through its (tag, postId) key.
    let query = this.db
      .selectFrom('post_tags')
      .select('post_tags.postId')
      .where('post_tags.tag', '=', firstTag);
    for (const tag of otherTags) {
      query = query.where((eb) =>
        eb.exists(
          eb
            .selectFrom('post_tags as other')
            .select('other.postId')
            .whereRef('other.postId', '=', 'post_tags.postId')
            .where('other.tag', '=', tag),
        ),
      );
    }
    const authorId = search.authorId;
    if (authorId !== null) {
      query = query.where((eb) =>
        eb.exists(
          eb
            .selectFrom('posts')
            .select('posts.id')
            .whereRef('posts.id', '=', 'post_tags.postId')
            .where('posts.authorId', '=', authorId),
        ),
      );
    }
    const viewerId = search.viewerId;
    if (viewerId !== undefined) {
      query = query.where((eb) =>
        eb.exists(
          eb
            .selectFrom('posts as seen')
            .select('seen.id')
            .whereRef('seen.id', '=', 'post_tags.postId')
            .where(visibleAuthor(viewerId, 'seen.authorId')),
        ),
      );
    }
    const rows = await query
      .orderBy('post_tags.postId', 'desc')
      .limit(search.limit)
      .offset(search.offset)
      .execute();
    return rows.map((row) => toId(row.postId));
  }

  /** Posts that match the words and phrases, ranked by relevance and recency. */
  protected abstract fullText(search: PostSearch): Promise<string[]>;

  /** `column` starts with `prefix`, in any case (a LIKE pattern, escaped with `\`). */
  protected abstract startsWith(column: string, pattern: string): RawBuilder<boolean>;

  /**
   * People whose username, first, last or display name, or first and last name together, start with
   * `prefix`: the exact username first, then by followers. Deactivated accounts are found, as follow lists
   * show them (with their state).
   */
  async people(prefix: string, limit: number, viewerId?: string): Promise<AuthorColumns[]> {
    const pattern = likePrefix(prefix);
    const [first, ...rest] = prefix.split(/\s+/u);
    const conditions = [
      this.startsWith('username', likePrefix(prefix.toLowerCase())),
      this.startsWith('firstName', pattern),
      this.startsWith('lastName', pattern),
      this.startsWith('displayName', pattern),
    ];
    if (first !== undefined && rest.length > 0) {
      // "Ada Lov": the first name found through its index, the whole against first and last together.
      conditions.push(
        sql<boolean>`(${this.startsWith('firstName', likePrefix(first))} and ${this.startsWith(
          `fullName`,
          pattern,
        )})`,
      );
    }
    const rows = await this.db
      .selectFrom('users as author')
      .select([...authorSelection, 'author.followerCount'])
      .select((eb) => authorAvatarRenditions(eb))
      .where(sql<boolean>`(${sql.join(conditions, sql` or `)})`)
      .$if(viewerId !== undefined, (query) =>
        query.where(notBlockedEitherWay(viewerId ?? '', 'author.id')),
      )
      .orderBy(
        sql`case when ${sql.ref('author.username')} = ${prefix.toLowerCase()} then 0 else 1 end`,
      )
      .orderBy('author.followerCount', 'desc')
      .orderBy('author.username')
      .limit(limit)
      .execute();
    return rows.map(({ followerCount: _followers, ...row }) => row);
  }

  /**
   * Tags on the most posts since `since`, with how many people used them. Post ids grow with time, so the
   * day's posts are the ids above the newest post written well before: found walking back from the newest,
   * with no index on the date.
   */
  async trendingTags(since: string, limit: number): Promise<TagUse[]> {
    // An hour's margin for the clocks of several instances writing posts.
    const boundary = new Date(Date.parse(since) - clockSkewMs).toISOString();
    const rows = await this.db
      .selectFrom('post_tags')
      .innerJoin('posts', 'posts.id', 'post_tags.postId')
      .select((eb) => [
        'post_tags.tag',
        eb.fn.countAll<number | string>().as('posts'),
        eb.fn.count<number | string>('posts.authorId').distinct().as('people'),
      ])
      .where('posts.id', '>', (eb) =>
        eb.fn.coalesce(
          eb
            .selectFrom('posts as older')
            .select('older.id')
            .where('older.createdAt', '<', boundary)
            .orderBy('older.id', 'desc')
            .limit(1),
          sql<number>`0`,
        ),
      )
      .where('posts.createdAt', '>=', since)
      .groupBy('post_tags.tag')
      .orderBy('posts', 'desc')
      .orderBy('people', 'desc')
      .orderBy('post_tags.tag')
      .limit(limit)
      .execute();
    return rows.map((row) => ({
      tag: row.tag,
      posts: toCount(row.posts),
      people: toCount(row.people),
    }));
  }
}

/**
 * FTS5: the index `posts_search` (migration 0006) over the text and author of each post, brought up to
 * date in batches (migration 0009): the posts written since the last batch are indexed before each search.
 */
class SqliteSearchRepository extends SearchRepository {
  constructor(
    db: Kysely<Database>,
    private readonly backlog: SearchBacklog,
  ) {
    super(db);
  }

  /** What an unfinished last word may become, by its folded prefix (see `completions`). */
  private readonly completionCache = new Map<string, { terms: string[] | null; until: number }>();

  protected async fullText(search: PostSearch): Promise<string[]> {
    await this.backlog.beforeSearch();
    const prefix = prefixWord(search);
    const last = search.words.length - 1;
    // Only the last word may be unfinished: what it may become is read once, before the match is written.
    const completions = prefix === null ? null : await this.completions(prefix);
    const unfinished = (word: string) =>
      completions === null
        ? `${fts5String(word)}*`
        : `(${completions.map(fts5String).join(' OR ')})`;
    const terms = [
      ...search.words.map((word, index) =>
        prefix !== null && index === last ? unfinished(word) : fts5String(word),
      ),
      ...search.phrases.map(fts5String),
      // Every post with a tag has its text in the body ("#tag"), so it narrows the match; post_tags decides.
      ...search.tags.map(fts5String),
    ];
    let match = `body : (${terms.join(' AND ')})`;
    if (search.authorId !== null) match += ` AND authorId : ${fts5String(search.authorId)}`;
    const exact: RawBuilder<unknown>[] = [];
    if (search.authorId !== null) {
      exact.push(
        sql`and exists (select 1 from posts as author_check where author_check.id = posts_search.rowid and author_check."authorId" = ${search.authorId})`,
      );
    }
    if (search.viewerId !== undefined) {
      exact.push(
        sql`and exists (select 1 from posts as seen where seen.id = posts_search.rowid and ${visibleAuthor(search.viewerId, 'seen.authorId')})`,
      );
    }
    for (const tag of search.tags) {
      exact.push(
        sql`and exists (select 1 from post_tags where post_tags."postId" = posts_search.rowid and post_tags.tag = ${tag})`,
      );
    }
    // The newest matches, walked newest first through the index and read whole for ranking (ADR 0043).
    const { rows } = await sql<RankCandidate>`
      select posts.id, posts.body, posts."createdAt" from (
        select posts_search.rowid as id
        from posts_search
        where posts_search match ${match} ${sql.join(exact, sql` `)}
        order by posts_search.rowid desc
        limit ${rankedMatchesMax}
      ) as matches
      join posts on posts.id = matches.id`.execute(this.db);
    const rankTerms: RankTerm[] = [
      ...search.words.map((word, index) => ({
        tokens: searchTokens(word),
        prefix: prefix !== null && index === last,
      })),
      ...[...search.phrases, ...search.tags].map((text) => ({
        tokens: searchTokens(text),
        prefix: false,
      })),
    ];
    return rankMatches(rows, rankTerms, search.now)
      .slice(search.offset, search.offset + search.limit)
      .map(toId);
  }

  /**
   * The words in the index that start with `word`, when the index has no prefix index of its length
   * (2 and 3 characters): FTS5 would otherwise merge every such word's list of posts in full before
   * reading the newest (15–20 ms for a common word on a million posts), where matching them by name reads
   * only the newest. Null when FTS5's prefix match is the better way: a word of 3 characters or fewer, one
   * the split of `search-ranking.ts` may not see as the index does (outside ASCII once folded), or one
   * that more than `completionsMax` words start with. Kept for `completionTtlMs`, so a word first written
   * within that time may be found by its prefix only once it has passed; typed in full, it always is.
   */
  private async completions(word: string): Promise<string[] | null> {
    const folded = foldForSearch(word);
    if (!/^[a-z0-9]{4,}$/.test(folded)) return null;
    const now = Date.now();
    const cached = this.completionCache.get(folded);
    if (cached && cached.until > now) return cached.terms;
    const { rows } = await sql<{ term: string }>`
      select term from posts_search_terms
      where term >= ${folded} and term < ${`${folded}\u{10FFFF}`}
      limit ${completionsMax + 1}`.execute(this.db);
    const found = rows.map((row) => row.term);
    const terms = found.length > completionsMax ? null : [...new Set([folded, ...found])];
    this.completionCache.delete(folded);
    this.completionCache.set(folded, { terms, until: now + completionTtlMs });
    // The oldest entry goes first: the map keeps the order entries were set in.
    if (this.completionCache.size > completionCacheMax) {
      const oldest = this.completionCache.keys().next();
      if (!oldest.done) this.completionCache.delete(oldest.value);
    }
    return terms;
  }

  protected startsWith(column: string, pattern: string): RawBuilder<boolean> {
    const value =
      column === 'fullName'
        ? sql`(${sql.ref('author.firstName')} || ' ' || ${sql.ref('author.lastName')})`
        : sql.ref(`author.${column}`);
    // SQLite's LIKE folds ASCII letters only: "élo" also tries "Élo" and "ÉLO", as names are written.
    const lower = pattern.toLowerCase();
    const variants = !/\P{ASCII}/u.test(pattern)
      ? [pattern]
      : [
          ...new Set([
            pattern,
            lower,
            `${lower.charAt(0).toUpperCase()}${lower.slice(1)}`,
            pattern.toUpperCase(),
          ]),
        ];
    const matches = variants.map((variant) => sql<boolean>`${value} like ${variant} escape '\\'`);
    return sql<boolean>`(${sql.join(matches, sql` or `)})`;
  }
}

/** PostgreSQL: the generated tsvector `searchVector` and its GIN index (migration 0006). */
class PostgresSearchRepository extends SearchRepository {
  protected async fullText(search: PostSearch): Promise<string[]> {
    const prefix = prefixWord(search);
    // Each word and phrase goes to PostgreSQL's parser as a bound value, split as the posts were.
    const parts: RawBuilder<unknown>[] = [
      ...search.words.map((word, index) =>
        prefix !== null && index === search.words.length - 1
          ? sql`to_tsquery('simple', ${`${tsqueryLexeme(word)}:*`})`
          : sql`phraseto_tsquery('simple', ${word})`,
      ),
      ...search.phrases.map((phrase) => sql`phraseto_tsquery('simple', ${phrase})`),
    ];
    const filters: RawBuilder<unknown>[] = [];
    if (search.authorId !== null) filters.push(sql`and posts."authorId" = ${search.authorId}`);
    if (search.viewerId !== undefined) {
      filters.push(sql`and ${visibleAuthor(search.viewerId, 'posts.authorId')}`);
    }
    for (const tag of search.tags) {
      filters.push(
        sql`and exists (select 1 from post_tags where post_tags."postId" = posts.id and post_tags.tag = ${tag})`,
      );
    }
    // The query is written out where it is used, so the planner sees its value: it estimates how many
    // posts match, and walks the newest posts or the GIN index accordingly.
    const query = sql`(${sql.join(parts, sql` && `)})`;
    // Except for a prefix, whose matches it cannot estimate: it always walks the newest posts, which is
    // right for a common prefix and reads every post for a rare one (2.4 s on a million). A look at the
    // newest posts tells which it is; for a rare one the newest-first order is made an expression, so the
    // GIN index is the planner's only fast way in.
    const newestFirst =
      prefix !== null && !(await this.denseAmongNewest(query)) ? sql`posts.id + 0` : sql`posts.id`;
    const { rows } = await sql<{ id: string }>`
      ${sql.raw(plannedForItsValues)} select matches.id from (
        select posts.id, posts."createdAt", ts_rank(posts."searchVector", ${query}) as relevance
        from posts
        where posts."searchVector" @@ ${query} ${sql.join(filters, sql` `)}
        order by ${newestFirst} desc
        limit ${rankedMatchesMax}
      ) as matches
      order by matches.relevance / (1 + greatest(0, extract(epoch from (${search.now}::timestamptz - matches."createdAt")) / 86400) / ${recencyDays}) desc,
        matches.id desc
      limit ${search.limit} offset ${search.offset}`.execute(this.db);
    return rows.map((row) => toId(row.id));
  }

  /** Whether `query` matches at least `prefixProbe.dense` of the newest `prefixProbe.posts` posts. */
  private async denseAmongNewest(query: RawBuilder<unknown>): Promise<boolean> {
    const { rows } = await sql<{ hits: string | number }>`
      ${sql.raw(plannedForItsValues)} select count(*) filter (where newest."searchVector" @@ ${query}) as hits
      from (select "searchVector" from posts order by id desc limit ${prefixProbe.posts}) as newest`.execute(
      this.db,
    );
    return toCount(rows[0]?.hits ?? 0) >= prefixProbe.dense;
  }

  protected startsWith(column: string, pattern: string): RawBuilder<boolean> {
    // Usernames are stored lower-cased; names are compared lower-cased, as their indexes are built.
    if (column === 'username') return sql<boolean>`${sql.ref('author.username')} like ${pattern}`;
    if (column === 'fullName') {
      return sql<boolean>`lower(${sql.ref('author.firstName')} || ' ' || ${sql.ref('author.lastName')}) like lower(${pattern})`;
    }
    return sql<boolean>`lower(${sql.ref(`author.${column}`)}) like lower(${pattern})`;
  }
}

/** The search repository for the database in use; SQLite's indexes new posts through `backlog`. */
export function createSearchRepository(
  db: Kysely<Database>,
  dialect: Dialect,
  backlog: SearchBacklog,
): SearchRepository {
  return dialect === 'postgres'
    ? new PostgresSearchRepository(db)
    : new SqliteSearchRepository(db, backlog);
}
