import {
  pageQuerySchema,
  userEditBodySchema,
  userIdParamsSchema,
  usernameParamsSchema,
  userSearchQuerySchema,
  type FollowResponse,
  type UserPage,
} from '@perch/contract';
import type { FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { viewerOf } from '../../lib/viewer';
import { readerOf } from '../../lib/prefer';

export const usersRoutes: FastifyPluginAsyncZod = async (app) => {
  const { users, embeds } = app.services;
  const auth = { preHandler: app.authenticate };
  const open = { preHandler: app.identify };

  /** Follow and unfollow answer the reader's own record and the other member's profile. */
  const followAnswer = async (req: FastifyRequest, { user, followUser }: FollowResponse) => ({
    user: await embeds.own(user, readerOf(req)),
    followUser: await embeds.profile(followUser, readerOf(req)),
  });
  const listAnswer = async (req: FastifyRequest, page: UserPage) => ({
    ...page,
    users: await embeds.list(page.users, readerOf(req)),
  });

  app.get('/', { ...open, schema: { querystring: userSearchQuerySchema } }, async (req) =>
    listAnswer(req, await users.search(req.viewer, req.query)),
  );
  app.get('/suggestions', { ...auth, schema: { querystring: pageQuerySchema } }, async (req) =>
    listAnswer(req, await users.suggestions(viewerOf(req), req.query)),
  );
  app.get('/:username', { ...open, schema: { params: usernameParamsSchema } }, async (req) => {
    const { user } = await users.profile(req.params.username, req.viewer);
    return { user: await embeds.profile(user, readerOf(req)) };
  });
  app.post('/edit', { ...auth, schema: { body: userEditBodySchema } }, async (req) => {
    const { user } = await users.edit(viewerOf(req), req.body.userData);
    return { user: await embeds.own(user, readerOf(req)) };
  });
  app.post('/follow/:userId', { ...auth, schema: { params: userIdParamsSchema } }, async (req) =>
    followAnswer(req, await users.follow(viewerOf(req), req.params.userId)),
  );
  app.post('/unfollow/:userId', { ...auth, schema: { params: userIdParamsSchema } }, async (req) =>
    followAnswer(req, await users.unfollow(viewerOf(req), req.params.userId)),
  );
};
