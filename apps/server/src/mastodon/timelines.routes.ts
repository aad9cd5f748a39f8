import { mastodon } from '@perch/contract';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { encodeCursor } from '../lib/cursor';
import { viewerOf } from '../lib/viewer';
import type { MastodonAuth } from './auth';
import { statusRenderer } from './hydrate';
import { pageParamsSchema } from './pagination';
import { isUlid } from './statuses-ids';
import { timelinePage } from './timelines-paging';

const statusList = { 200: z.array(mastodon.statusSchema) };

/** Perch has one community: `local` and `remote` change nothing, `only_media` keeps albums. */
const publicQuerySchema = pageParamsSchema.extend({
  local: z.unknown().optional(),
  remote: z.unknown().optional(),
  only_media: z.enum(['true', 'false', '1', '0']).optional(),
});

const onlyMedia = (value: string | undefined) => value === 'true' || value === '1';

/** Home, the public timeline and a tag's (docs.joinmastodon.org/methods/timelines). */
export const timelinesRoutes: FastifyPluginAsyncZod<{ auth: MastodonAuth }> = async (
  app,
  { auth },
) => {
  const { posts, discovery } = app.services;

  app.get(
    '/timelines/home',
    {
      preHandler: auth.member('read:statuses'),
      schema: {
        querystring: pageParamsSchema,
        response: statusList,
        summary: "Home: the posts of the member's follows, their reposts as reblogs",
      },
    },
    async (request, reply) => {
      const viewer = viewerOf(request);
      return timelinePage(
        request,
        reply,
        statusRenderer(app, request),
        request.query,
        (cursor, limit) => posts.feed(viewer, 'home', { sort: 'latest', limit, cursor }),
      );
    },
  );

  app.get(
    '/timelines/public',
    {
      preHandler: auth.open('read:statuses'),
      schema: {
        querystring: publicQuerySchema,
        response: statusList,
        summary: 'Everyone’s posts, newest first',
      },
    },
    async (request, reply) => {
      const media = onlyMedia(request.query.only_media);
      return timelinePage(
        request,
        reply,
        statusRenderer(app, request),
        request.query,
        (cursor, limit) => posts.all(request.viewer, { sort: 'latest', limit, cursor }),
        { keep: (post) => !media || post.media.length > 0 },
      );
    },
  );

  app.get(
    '/timelines/tag/:hashtag',
    {
      preHandler: auth.open('read:statuses'),
      schema: {
        params: z.object({ hashtag: z.string().min(1).max(100) }),
        querystring: publicQuerySchema,
        response: statusList,
        summary: 'The posts with a tag, newest first',
      },
    },
    async (request, reply) => {
      const tag = request.params.hashtag.replace(/^#/, '').toLowerCase();
      const media = onlyMedia(request.query.only_media);
      return timelinePage(
        request,
        reply,
        statusRenderer(app, request),
        request.query,
        (cursor, limit) => discovery.tagPage(request.viewer, tag, { limit, cursor }),
        {
          keep: (post) => !media || post.media.length > 0,
          // A tag's page continues below a post id: its cursor names the id alone.
          below: (id) => (isUlid(id) ? encodeCursor([id]) : undefined),
        },
      );
    },
  );
};
