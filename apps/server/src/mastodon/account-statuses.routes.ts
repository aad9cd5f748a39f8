import { mastodon } from '@perch/contract';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { notFound } from '../lib/errors';
import { MastodonMessages, type MastodonAuth } from './auth';
import { statusRenderer } from './hydrate';
import { pageParamsSchema } from './pagination';
import { formBoolean } from './form';
import { orNotFound } from './statuses-read';
import { timelinePage } from './timelines-paging';

/**
 * A member's statuses. Perch's posts are never replies and a profile shows no reposts, so
 * `exclude_replies` and `exclude_reblogs` change nothing.
 */
const querySchema = pageParamsSchema.extend({
  pinned: formBoolean.optional(),
  only_media: formBoolean.optional(),
  exclude_replies: formBoolean.optional(),
  exclude_reblogs: formBoolean.optional(),
  tagged: z.string().max(100).optional(),
});

export const accountStatusesRoutes: FastifyPluginAsyncZod<{ auth: MastodonAuth }> = async (
  app,
  { auth },
) => {
  const { users, posts } = app.services;
  app.get(
    '/accounts/:id/statuses',
    {
      preHandler: auth.open('read:statuses'),
      schema: {
        params: z.object({ id: z.string().min(1).max(64) }),
        querystring: querySchema,
        response: { 200: z.array(mastodon.statusSchema) },
        summary: "A member's posts, newest first (or their pinned ones)",
      },
    },
    async (request, reply) => {
      const renderer = statusRenderer(app, request);
      const [user] = await users.byIds([request.params.id], renderer.viewer?.id ?? null);
      if (!user) throw notFound(MastodonMessages.notFound);
      const { query } = request;
      if (query.pinned) {
        // Every pin fits one page: a later page has none.
        if (query.max_id || query.min_id || query.since_id) return [];
        const pinned = await orNotFound(posts.pinned(user.username, renderer.viewer));
        return renderer.statuses(pinned.posts);
      }
      const tag = query.tagged?.replace(/^#/, '').toLowerCase();
      return timelinePage(
        request,
        reply,
        renderer,
        query,
        (cursor, limit) =>
          orNotFound(
            posts.byAuthor(user.username, renderer.viewer, { sort: 'latest', limit, cursor }),
          ),
        {
          keep: (post) =>
            (!query.only_media || post.media.length > 0) &&
            (tag === undefined ||
              post.entities.some((e) => e.type === 'tag' && e.tag.toLowerCase() === tag)),
        },
      );
    },
  );
};
