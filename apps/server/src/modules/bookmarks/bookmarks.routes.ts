import {
  bookmarkMutationResponseSchema,
  bookmarkPageSchema,
  pageQuerySchema,
  postIdParamsSchema,
  type Post,
} from '@perch/contract';
import type { FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { readerOf, withFirstPage } from '../../lib/prefer';
import { viewerOf } from '../../lib/viewer';

/** Bookmark calls live under /users, as the original API had them. */
export const bookmarksRoutes: FastifyPluginAsyncZod = async (app) => {
  const { bookmarks, embeds } = app.services;
  const auth = { preHandler: app.authenticate };
  const byPost = { params: postIdParamsSchema };

  /** Adding and removing answer the post, plus the first page of bookmarks unless minimal. */
  const answer = async (req: FastifyRequest, post: Post) =>
    embeds.posts(
      await withFirstPage(req, { post }, 'bookmarks', () => bookmarks.firstPage(viewerOf(req))),
      readerOf(req),
    );

  const list = {
    querystring: pageQuerySchema,
    response: { 200: bookmarkPageSchema },
    summary: "The member's bookmarks, newest first",
  };
  const mutation = (summary: string) => ({
    ...byPost,
    response: { 200: bookmarkMutationResponseSchema },
    summary,
  });
  app.get('/bookmark', { ...auth, schema: list }, async (req) =>
    embeds.posts(await bookmarks.list(viewerOf(req), req.query), readerOf(req)),
  );
  app.post('/bookmark/:postId', { ...auth, schema: mutation('Bookmark a post') }, async (req) =>
    answer(req, await bookmarks.add(viewerOf(req), req.params.postId)),
  );
  const removal = mutation('Remove a bookmark');
  app.post('/remove-bookmark/:postId', { ...auth, schema: removal }, async (req) =>
    answer(req, await bookmarks.remove(viewerOf(req), req.params.postId)),
  );
};
