import {
  peopleResultSchema,
  peopleSearchQuerySchema,
  postSearchQuerySchema,
  trendingTagsSchema,
} from '../../schemas/search.js';
import { postPageSchema } from '../../schemas/post.js';
import { limits } from '../../limits.js';
import { defineEndpoint } from '../endpoint.js';

/** People, posts and tags (issue: notifications and search §3). */
export const searchEndpoints = {
  searchPeople: defineEndpoint({
    id: 'searchPeople',
    method: 'GET',
    path: '/api/search/people',
    tag: 'Search',
    summary: 'Find people by username or name',
    description:
      'Prefix-matched on the username, first, last and display name, in any case, as people type; a leading `@` is ignored. Exact usernames first, then people with more followers.',
    access: 'public',
    query: peopleSearchQuerySchema,
    status: 200,
    response: peopleResultSchema,
    rateLimit: ['search'],
  }),
  searchPosts: defineEndpoint({
    id: 'searchPosts',
    method: 'GET',
    path: '/api/search/posts',
    tag: 'Search',
    summary: 'Find posts by their words',
    description: `Full text, ranked by relevance with recency. Words must all match (the last one as a prefix); \`"quoted phrases"\` match as written; \`from:username\` keeps one person's posts and \`#tag\` posts with that tag. Unbalanced quotes and other symbols are read as plain words. Results go at most ${String(limits.search.maxResults)} deep; \`cursor\` is the one the previous page gave.`,
    access: 'public',
    query: postSearchQuerySchema,
    status: 200,
    response: postPageSchema,
    rateLimit: ['search'],
  }),
  getTrendingTags: defineEndpoint({
    id: 'getTrendingTags',
    method: 'GET',
    path: '/api/tags/trending',
    tag: 'Search',
    summary: "The day's most used tags",
    description: `The ${String(limits.search.trendingTags)} tags on the most posts in the last 24 hours, with how many posts and people used each.`,
    access: 'public',
    status: 200,
    response: trendingTagsSchema,
  }),
} as const;
