import {
  pageQuerySchema,
  userEditBodySchema,
  userIdParamsSchema,
  usernameParamsSchema,
  userSearchQuerySchema,
} from '@perch/contract';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { viewerOf } from '../../auth/viewer';

export const usersRoutes: FastifyPluginAsyncZod = async (app) => {
  const { users } = app.services;
  const auth = { preHandler: app.authenticate };
  const open = { preHandler: app.identify };

  app.get('/', { ...open, schema: { querystring: userSearchQuerySchema } }, (req) =>
    users.search(req.viewer, req.query),
  );
  app.get('/suggestions', { ...auth, schema: { querystring: pageQuerySchema } }, (req) =>
    users.suggestions(viewerOf(req), req.query),
  );
  app.get('/:username', { ...open, schema: { params: usernameParamsSchema } }, (req) =>
    users.profile(req.params.username, req.viewer),
  );
  app.post('/edit', { ...auth, schema: { body: userEditBodySchema } }, (req) =>
    users.edit(viewerOf(req), req.body.userData),
  );
  app.post('/follow/:userId', { ...auth, schema: { params: userIdParamsSchema } }, (req) =>
    users.follow(viewerOf(req), req.params.userId),
  );
  app.post('/unfollow/:userId', { ...auth, schema: { params: userIdParamsSchema } }, (req) =>
    users.unfollow(viewerOf(req), req.params.userId),
  );
};
