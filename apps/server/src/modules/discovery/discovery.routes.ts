import {
  pageQuerySchema,
  postSearchQuerySchema,
  tagParamsSchema,
  tagSearchQuerySchema,
  trendingQuerySchema,
} from '@perch/contract';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { readerOf } from '../../lib/prefer';

/** /api/search, /api/tags and /api/trends: open to everyone, like the posts they list. */
export const discoveryRoutes: FastifyPluginAsyncZod = async (app) => {
  const { discovery, embeds } = app.services;
  const open = { preHandler: app.identify };

  app.get(
    '/search/posts',
    { ...open, schema: { querystring: postSearchQuerySchema } },
    async (req) => embeds.posts(await discovery.searchPosts(req.viewer, req.query), readerOf(req)),
  );
  app.get('/tags', { ...open, schema: { querystring: tagSearchQuerySchema } }, async (req) =>
    discovery.searchTags(req.query.q, req.query.limit),
  );
  app.get(
    '/tags/:tag',
    { ...open, schema: { params: tagParamsSchema, querystring: pageQuerySchema } },
    async (req) =>
      embeds.posts(await discovery.tagPage(req.viewer, req.params.tag, req.query), readerOf(req)),
  );
  app.get('/trends/tags', { schema: { querystring: trendingQuerySchema } }, async (req) =>
    discovery.trending(req.query.limit),
  );
};
