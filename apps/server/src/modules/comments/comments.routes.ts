import {
  IDEMPOTENCY_HEADER,
  idempotencyHeadersSchema,
  commentBodySchema,
  commentDeleteResponseSchema,
  commentMutationResponseSchema,
  commentPageSchema,
  commentParamsSchema,
  commentVoteResponseSchema,
  pageQuerySchema,
  postIdParamsSchema,
  type Post,
} from '@perch/contract';
import type { FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { readerOf, withFirstPage } from '../../lib/prefer';
import { viewerOf } from '../../lib/viewer';
import type { VoteDirection } from './vote';

export const commentsRoutes: FastifyPluginAsyncZod = async (app) => {
  const { comments, posts, embeds } = app.services;
  const auth = { preHandler: app.authenticate };

  /** Comment mutations answer 201; unless minimal, with the latest posts as the original API did. */
  const withPosts = async <Body extends { post: Post }>(req: FastifyRequest, body: Body) =>
    embeds.posts(
      await withFirstPage(req, body, 'posts', () => posts.latestPage(viewerOf(req))),
      readerOf(req),
    );

  app.get(
    '/:postId',
    {
      preHandler: app.identify,
      schema: {
        params: postIdParamsSchema,
        querystring: pageQuerySchema,
        response: { 200: commentPageSchema },
        summary: "A post's comments, oldest first",
      },
    },
    (req) => comments.list(req.params.postId, req.viewer, req.query),
  );
  app.post(
    '/add/:postId',
    {
      ...auth,
      schema: {
        params: postIdParamsSchema,
        body: commentBodySchema,
        headers: idempotencyHeadersSchema,
        response: { 201: commentMutationResponseSchema },
        summary: 'Comment on a post',
      },
    },
    async (req, reply) => {
      const result = await comments.add(
        viewerOf(req),
        req.params.postId,
        req.body.commentData.text,
        req.headers[IDEMPOTENCY_HEADER],
      );
      return reply.status(201).send(await withPosts(req, result));
    },
  );
  app.post(
    '/edit/:postId/:commentId',
    {
      ...auth,
      schema: {
        params: commentParamsSchema,
        body: commentBodySchema,
        response: { 201: commentMutationResponseSchema },
        summary: 'Edit a comment',
      },
    },
    async (req, reply) => {
      const { postId, commentId } = req.params;
      const result = await comments.edit(
        viewerOf(req),
        postId,
        commentId,
        req.body.commentData.text,
      );
      return reply.status(201).send(await withPosts(req, result));
    },
  );
  app.delete(
    '/delete/:postId/:commentId',
    {
      ...auth,
      schema: {
        params: commentParamsSchema,
        response: { 201: commentDeleteResponseSchema },
        summary: 'Delete a comment',
      },
    },
    async (req, reply) => {
      const { postId, commentId } = req.params;
      const { post } = await comments.remove(viewerOf(req), postId, commentId);
      return reply.status(201).send(await withPosts(req, { commentId, post }));
    },
  );

  for (const direction of ['up', 'down'] as const) voteRoute(app, direction);
};

/** Upvote and downvote: the comment as counted after the vote, with the post's first page. */
function voteRoute(app: Parameters<FastifyPluginAsyncZod>[0], direction: VoteDirection): void {
  app.post(
    `/${direction}vote/:postId/:commentId`,
    {
      preHandler: app.authenticate,
      schema: {
        params: commentParamsSchema,
        response: { 201: commentVoteResponseSchema },
        summary: `${direction === 'up' ? 'Upvote' : 'Downvote'} a comment`,
      },
    },
    async (req, reply) => {
      const viewer = viewerOf(req);
      const { postId, commentId } = req.params;
      const comment = await app.services.comments.vote(viewer, postId, commentId, direction);
      const body = await withFirstPage(req, { comment }, 'comments', () =>
        app.services.comments.firstPage(postId, viewer),
      );
      return reply.status(201).send(body);
    },
  );
}
