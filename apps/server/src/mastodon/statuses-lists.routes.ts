import { mastodon, type Post } from '@perch/contract';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { viewerOf } from '../lib/viewer';
import type { MastodonAuth } from './auth';
import { linksOf } from './context';
import { toAccount } from './entities/account';
import { statusRenderer } from './hydrate';
import { limitOf, pageParamsSchema, type PageParams } from './pagination';
import { postIdOf } from './statuses-ids';
import { openPost } from './statuses-read';

/** `next` to the page below, its `max_id` the cursor Perch gave (these lists page one way). */
function setNextLink(
  request: FastifyRequest,
  reply: FastifyReply,
  origin: string,
  cursor: string | null,
): void {
  if (cursor === null) return;
  const url = new URL(request.url, origin);
  for (const name of ['max_id', 'min_id', 'since_id']) url.searchParams.delete(name);
  url.searchParams.set('max_id', cursor);
  void reply.header('link', `<${url.toString()}>; rel="next"`);
}

interface Page {
  posts: Post[];
  nextCursor: string | null;
}

/** A list Perch pages with its own cursors: `max_id` is the cursor its `Link` header gave. */
async function cursorPage(
  app: FastifyInstance,
  request: FastifyRequest,
  reply: FastifyReply,
  params: PageParams,
  read: (query: { limit: number; cursor?: string }) => Promise<Page>,
) {
  // since_id and min_id name newer items; these lists are read from their newest only.
  if (params.min_id || params.since_id) return [];
  const page = await read({ limit: limitOf(params), cursor: params.max_id });
  const renderer = statusRenderer(app, request);
  setNextLink(request, reply, renderer.links.origin, page.nextCursor);
  return renderer.statuses(page.posts);
}

/** Members who liked or reposted a post, newest first, those hidden from the viewer left out. */
async function membersOf(
  app: FastifyInstance,
  request: FastifyRequest,
  reply: FastifyReply,
  table: 'likes' | 'reposts',
  params: PageParams,
) {
  const renderer = statusRenderer(app, request);
  const post = await openPost(app, renderer, postIdOf((request.params as { id: string }).id));
  const { ids, nextCursor } = await app.services.posts.interactors(
    table,
    post._id,
    renderer.viewer,
    {
      limit: limitOf(params),
      cursor: params.max_id,
    },
  );
  setNextLink(request, reply, renderer.links.origin, nextCursor);
  const users = await app.services.users.byIds(ids, renderer.viewer?.id ?? null);
  const links = linksOf(app, request);
  return users.map((user) => toAccount(user, links));
}

/** Bookmarks, favourites, and who favourited or reblogged a status. */
export const statusListsRoutes: FastifyPluginAsyncZod<{ auth: MastodonAuth }> = async (
  app,
  { auth },
) => {
  const { bookmarks, posts } = app.services;
  const statuses = {
    querystring: pageParamsSchema,
    response: { 200: z.array(mastodon.statusSchema) },
  };
  const accounts = {
    params: z.object({ id: z.string().min(1).max(64) }),
    querystring: pageParamsSchema,
    response: { 200: z.array(mastodon.accountSchema) },
  };

  app.get(
    '/bookmarks',
    {
      preHandler: auth.member('read:bookmarks'),
      schema: { ...statuses, summary: "The member's bookmarks, newest bookmark first" },
    },
    (request, reply) =>
      cursorPage(app, request, reply, request.query, async (query) => {
        const page = await bookmarks.list(viewerOf(request), query);
        return { posts: page.bookmarks, nextCursor: page.nextCursor };
      }),
  );
  app.get(
    '/favourites',
    {
      preHandler: auth.member('read:favourites'),
      schema: { ...statuses, summary: 'The posts the member liked' },
    },
    (request, reply) =>
      cursorPage(app, request, reply, request.query, (query) =>
        posts.feed(viewerOf(request), 'liked', { ...query, sort: 'latest' }),
      ),
  );
  app.get(
    '/statuses/:id/favourited_by',
    {
      preHandler: auth.open('read:accounts'),
      schema: { ...accounts, summary: 'Who liked a post' },
    },
    (request, reply) => membersOf(app, request, reply, 'likes', request.query),
  );
  app.get(
    '/statuses/:id/reblogged_by',
    {
      preHandler: auth.open('read:accounts'),
      schema: { ...accounts, summary: 'Who reposted a post' },
    },
    (request, reply) => membersOf(app, request, reply, 'reposts', request.query),
  );
};
