import type { PeopleResult, TrendingTag } from '../schemas/search.js';
import { makeAuthor } from './post-fixtures.js';

/** One of the day's tags for unit tests. */
export function makeTrendingTag(overrides: Partial<TrendingTag> = {}): TrendingTag {
  return { tag: 'hearth', posts: 3, people: 2, ...overrides };
}

/** People found, one per username given. */
export function makePeopleResult(usernames: string[]): PeopleResult {
  return {
    items: usernames.map((username, index) =>
      makeAuthor({ uid: `u${String(index + 1)}`, username, firstName: username, lastName: null }),
    ),
  };
}
