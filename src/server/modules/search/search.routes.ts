import type { FastifyPluginAsync } from 'fastify';
import { searchEndpoints as api } from '../../../shared/contract/endpoints/search.js';
import { serve } from '../../http/serve.js';
import type { SearchService } from './search.service.js';

/** People, posts and the day's tags (issue: notifications and search §3). */
export const searchRoutes: FastifyPluginAsync<{ search: SearchService }> = (app, { search }) => {
  serve(app, api.searchPeople, async ({ viewer, query }) =>
    search.people(query.q, query.limit, await viewer()),
  );
  serve(app, api.searchPosts, async ({ viewer, query }) => search.posts(await viewer(), query));
  serve(app, api.getTrendingTags, () => search.trendingTags());
  return Promise.resolve();
};
