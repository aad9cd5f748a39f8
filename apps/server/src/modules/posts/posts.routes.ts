import {
  IDEMPOTENCY_HEADER,
  idempotencyHeadersSchema,
  feedQuerySchema,
  postBodySchema,
  postEditBodySchema,
  postIdParamsSchema,
  usernameParamsSchema,
  type Post,
} from '@perch/contract';
import type { FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { readerOf, withFirstPage } from '../../lib/prefer';
import { viewerOf } from '../../lib/viewer';
import { like } from '../interactions';

export const postsRoutes: FastifyPluginAsyncZod = async (app) => {
  const { posts, interactions, embeds } = app.services;
  const auth = { preHandler: app.authenticate };
  const open = { preHandler: app.identify };
  const byId = { params: postIdParamsSchema };

  app.get('/', { ...open, schema: { querystring: feedQuerySchema } }, async (req) =>
    embeds.posts(await posts.all(req.viewer, req.query), readerOf(req)),
  );
  app.get('/feed', { ...auth, schema: { querystring: feedQuerySchema } }, async (req) =>
    embeds.posts(await posts.feed(viewerOf(req), 'home', req.query), readerOf(req)),
  );
  app.get('/explore', { ...auth, schema: { querystring: feedQuerySchema } }, async (req) =>
    embeds.posts(await posts.feed(viewerOf(req), 'explore', req.query), readerOf(req)),
  );
  app.get('/liked', { ...auth, schema: { querystring: feedQuerySchema } }, async (req) =>
    embeds.posts(await posts.feed(viewerOf(req), 'liked', req.query), readerOf(req)),
  );
  app.get(
    '/user/:username',
    { ...open, schema: { params: usernameParamsSchema, querystring: feedQuerySchema } },
    async (req) =>
      embeds.posts(await posts.byAuthor(req.params.username, req.viewer, req.query), readerOf(req)),
  );
  app.get('/:postId', { ...open, schema: byId }, async (req) =>
    embeds.posts({ post: await posts.open(req.params.postId, req.viewer) }, readerOf(req)),
  );

  /** Every post mutation answers 201 with what changed, plus the latest posts unless minimal. */
  const answer = async (req: FastifyRequest, body: { post: Post } | { postId: string }) =>
    embeds.posts(
      await withFirstPage(req, body, 'posts', () => posts.latestPage(viewerOf(req))),
      readerOf(req),
    );

  app.post(
    '/',
    { ...auth, schema: { body: postBodySchema, headers: idempotencyHeadersSchema } },
    async (req, reply) => {
      const key = req.headers[IDEMPOTENCY_HEADER];
      const post = await posts.create(viewerOf(req), req.body.postData, key);
      return reply.status(201).send(await answer(req, { post }));
    },
  );
  app.post(
    '/edit/:postId',
    { ...auth, schema: { ...byId, body: postEditBodySchema } },
    async (req, reply) => {
      const post = await posts.edit(viewerOf(req), req.params.postId, req.body.postData);
      return reply.status(201).send(await answer(req, { post }));
    },
  );
  app.delete('/:postId', { ...auth, schema: byId }, async (req, reply) => {
    await posts.remove(viewerOf(req), req.params.postId);
    return reply.status(201).send(await answer(req, { postId: req.params.postId }));
  });
  app.post('/like/:postId', { ...auth, schema: byId }, async (req, reply) => {
    const post = await interactions.add(like, viewerOf(req), req.params.postId);
    return reply.status(201).send(await answer(req, { post }));
  });
  app.post('/dislike/:postId', { ...auth, schema: byId }, async (req, reply) => {
    const post = await interactions.remove(like, viewerOf(req), req.params.postId);
    return reply.status(201).send(await answer(req, { post }));
  });
};
