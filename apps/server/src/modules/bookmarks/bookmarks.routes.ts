import { pageQuerySchema, postIdParamsSchema } from '@perch/contract';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { withFirstPage } from '../../lib/prefer';
import { viewerOf } from '../../auth/viewer';

/** Bookmark calls live under /users, as the original API had them. */
export const bookmarksRoutes: FastifyPluginAsyncZod = async (app) => {
  const { bookmarks } = app.services;
  const auth = { preHandler: app.authenticate };
  const byPost = { params: postIdParamsSchema };

  app.get('/bookmark', { ...auth, schema: { querystring: pageQuerySchema } }, (req) =>
    bookmarks.list(viewerOf(req), req.query),
  );
  app.post('/bookmark/:postId', { ...auth, schema: byPost }, async (req) => {
    const viewer = viewerOf(req);
    const post = await bookmarks.add(viewer, req.params.postId);
    return withFirstPage(req, { post }, 'bookmarks', () => bookmarks.firstPage(viewer));
  });
  app.post('/remove-bookmark/:postId', { ...auth, schema: byPost }, async (req) => {
    const viewer = viewerOf(req);
    const post = await bookmarks.remove(viewer, req.params.postId);
    return withFirstPage(req, { post }, 'bookmarks', () => bookmarks.firstPage(viewer));
  });
};
