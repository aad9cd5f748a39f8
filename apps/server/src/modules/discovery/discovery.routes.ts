import {
  pageQuerySchema,
  postSearchPageSchema,
  postSearchQuerySchema,
  tagListSchema,
  tagPageSchema,
  tagParamsSchema,
  tagSearchQuerySchema,
  trendingQuerySchema,
  trendingTagsSchema,
} from '@perch/contract';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { readerOf } from '../../lib/prefer';

/** /api/search, /api/tags and /api/trends: open to everyone, like the posts they list. */
export const discoveryRoutes: FastifyPluginAsyncZod = async (app) => {
  const { discovery, embeds } = app.services;
  const open = { preHandler: app.identify };

  app.get(
    '/search/posts',
    {
      ...open,
      schema: {
        querystring: postSearchQuerySchema,
        response: { 200: postSearchPageSchema },
        summary: 'Search posts',
      },
    },
    async (req) => embeds.posts(await discovery.searchPosts(req.viewer, req.query), readerOf(req)),
  );
  const tags = {
    querystring: tagSearchQuerySchema,
    response: { 200: tagListSchema },
    summary: 'Tags that start with `q`, most used first',
  };
  app.get('/tags', { ...open, schema: tags }, async (req) =>
    discovery.searchTags(req.query.q, req.query.limit),
  );
  app.get(
    '/tags/:tag',
    {
      ...open,
      schema: {
        params: tagParamsSchema,
        querystring: pageQuerySchema,
        response: { 200: tagPageSchema },
        summary: "A tag's posts, newest first",
      },
    },
    async (req) =>
      embeds.posts(await discovery.tagPage(req.viewer, req.params.tag, req.query), readerOf(req)),
  );
  const trends = {
    querystring: trendingQuerySchema,
    response: { 200: trendingTagsSchema },
    summary: 'The tags most used in the last day',
  };
  app.get('/trends/tags', { schema: trends }, async (req) => discovery.trending(req.query.limit));
};
