import {
  IDEMPOTENCY_HEADER,
  idempotencyHeadersSchema,
  feedQuerySchema,
  postBodySchema,
  postEditBodySchema,
  postDeleteResponseSchema,
  postIdParamsSchema,
  postMutationResponseSchema,
  postPageSchema,
  postResponseSchema,
  pinnedPostsSchema,
  usernameParamsSchema,
  type Post,
} from '@perch/contract';
import type { FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { readerOf, withFirstPage } from '../../lib/prefer';
import { viewerOf } from '../../lib/viewer';
import { like, pin, repost } from '../interactions';

/** The lists of posts and one post, for members and, where open, visitors. */
const postReadRoutes: FastifyPluginAsyncZod = async (app) => {
  const { posts, embeds } = app.services;
  const auth = { preHandler: app.authenticate };
  const open = { preHandler: app.identify };
  const byId = { params: postIdParamsSchema };

  const page = (summary: string) => ({
    querystring: feedQuerySchema,
    response: { 200: postPageSchema },
    summary,
  });
  app.get('/', { ...open, schema: page('The latest posts of everyone') }, async (req) =>
    embeds.posts(await posts.all(req.viewer, req.query), readerOf(req)),
  );
  app.get(
    '/feed',
    { ...auth, schema: page("Home: the posts of the member's follows") },
    async (req) => embeds.posts(await posts.feed(viewerOf(req), 'home', req.query), readerOf(req)),
  );
  app.get(
    '/explore',
    { ...auth, schema: page('Explore: posts of members the member does not follow') },
    async (req) =>
      embeds.posts(await posts.feed(viewerOf(req), 'explore', req.query), readerOf(req)),
  );
  app.get('/liked', { ...auth, schema: page('The posts the member liked') }, async (req) =>
    embeds.posts(await posts.feed(viewerOf(req), 'liked', req.query), readerOf(req)),
  );
  app.get(
    '/user/:username',
    { ...open, schema: { ...page("A member's posts"), params: usernameParamsSchema } },
    async (req) =>
      embeds.posts(await posts.byAuthor(req.params.username, req.viewer, req.query), readerOf(req)),
  );
  const pinned = {
    params: usernameParamsSchema,
    response: { 200: pinnedPostsSchema },
    summary: "A member's pinned posts, newest pin first",
  };
  app.get('/user/:username/pinned', { ...open, schema: pinned }, async (req) =>
    embeds.posts(await posts.pinned(req.params.username, req.viewer), readerOf(req)),
  );
  const one = {
    ...byId,
    response: { 200: postResponseSchema },
    summary: 'One post, with its first comments',
  };
  app.get('/:postId', { ...open, schema: one }, async (req) =>
    embeds.posts({ post: await posts.open(req.params.postId, req.viewer) }, readerOf(req)),
  );
};

/** Creating, editing, deleting, liking, pinning and reposting posts. */
const postWriteRoutes: FastifyPluginAsyncZod = async (app) => {
  const { posts, interactions, embeds } = app.services;
  const auth = { preHandler: app.authenticate };
  const byId = { params: postIdParamsSchema };
  const mutation = (summary: string) => ({
    ...byId,
    response: { 201: postMutationResponseSchema },
    summary,
  });

  /** Every post mutation answers 201 with what changed, plus the latest posts unless minimal. */
  const answer = async <Body extends { post: Post } | { postId: string }>(
    req: FastifyRequest,
    body: Body,
  ) =>
    embeds.posts(
      await withFirstPage(req, body, 'posts', () => posts.latestPage(viewerOf(req))),
      readerOf(req),
    );

  app.post(
    '/',
    {
      ...auth,
      schema: {
        body: postBodySchema,
        headers: idempotencyHeadersSchema,
        response: { 201: postMutationResponseSchema },
        summary: 'Create a post',
      },
    },
    async (req, reply) => {
      const key = req.headers[IDEMPOTENCY_HEADER];
      const post = await posts.create(viewerOf(req), req.body.postData, key);
      return reply.status(201).send(await answer(req, { post }));
    },
  );
  app.post(
    '/edit/:postId',
    { ...auth, schema: { ...mutation('Edit a post'), body: postEditBodySchema } },
    async (req, reply) => {
      const post = await posts.edit(viewerOf(req), req.params.postId, req.body.postData);
      return reply.status(201).send(await answer(req, { post }));
    },
  );
  const removal = {
    ...byId,
    response: { 201: postDeleteResponseSchema },
    summary: 'Delete a post',
  };
  app.delete('/:postId', { ...auth, schema: removal }, async (req, reply) => {
    await posts.remove(viewerOf(req), req.params.postId);
    return reply.status(201).send(await answer(req, { postId: req.params.postId }));
  });
  app.post('/like/:postId', { ...auth, schema: mutation('Like a post') }, async (req, reply) => {
    const post = await interactions.add(like, viewerOf(req), req.params.postId);
    return reply.status(201).send(await answer(req, { post }));
  });
  app.post(
    '/dislike/:postId',
    { ...auth, schema: mutation('Take back a like') },
    async (req, reply) => {
      const post = await interactions.remove(like, viewerOf(req), req.params.postId);
      return reply.status(201).send(await answer(req, { post }));
    },
  );
  app.post(
    '/pin/:postId',
    { ...auth, schema: mutation('Pin an own post to the profile') },
    async (req, reply) => {
      const post = await interactions.add(pin, viewerOf(req), req.params.postId);
      return reply.status(201).send(await answer(req, { post }));
    },
  );
  app.post(
    '/unpin/:postId',
    { ...auth, schema: mutation('Take a pin off') },
    async (req, reply) => {
      const post = await interactions.remove(pin, viewerOf(req), req.params.postId);
      return reply.status(201).send(await answer(req, { post }));
    },
  );
  app.post(
    '/repost/:postId',
    { ...auth, schema: mutation("Repost a post to one's followers") },
    async (req, reply) => {
      const post = await interactions.add(repost, viewerOf(req), req.params.postId);
      return reply.status(201).send(await answer(req, { post }));
    },
  );
  app.post(
    '/unrepost/:postId',
    { ...auth, schema: mutation('Undo a repost') },
    async (req, reply) => {
      const post = await interactions.remove(repost, viewerOf(req), req.params.postId);
      return reply.status(201).send(await answer(req, { post }));
    },
  );
};

export const postsRoutes: FastifyPluginAsyncZod = async (app) => {
  await app.register(postReadRoutes);
  await app.register(postWriteRoutes);
};
