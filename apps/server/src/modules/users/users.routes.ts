import {
  followResponseSchema,
  pageQuerySchema,
  userEditBodySchema,
  userPageSchema,
  userResponseSchema,
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

  const search = {
    querystring: userSearchQuerySchema,
    response: { 200: userPageSchema },
    summary: 'Members, or those whose name or username matches `q`',
  };
  const suggestions = {
    querystring: pageQuerySchema,
    response: { 200: userPageSchema },
    summary: 'Who to follow',
  };
  const follow = (summary: string) => ({
    params: userIdParamsSchema,
    response: { 200: followResponseSchema },
    summary,
  });
  app.get('/', { ...open, schema: search }, async (req) =>
    listAnswer(req, await users.search(req.viewer, req.query)),
  );
  app.get('/suggestions', { ...auth, schema: suggestions }, async (req) =>
    listAnswer(req, await users.suggestions(viewerOf(req), req.query)),
  );
  const profile = {
    params: usernameParamsSchema,
    response: { 200: userResponseSchema },
    summary: "A member's profile",
  };
  app.get('/:username', { ...open, schema: profile }, async (req) => {
    const { user } = await users.profile(req.params.username, req.viewer);
    return { user: await embeds.profile(user, readerOf(req)) };
  });
  const edit = {
    body: userEditBodySchema,
    response: { 200: userResponseSchema },
    summary: "Edit the member's profile",
  };
  app.post('/edit', { ...auth, schema: edit }, async (req) => {
    const { user } = await users.edit(viewerOf(req), req.body.userData);
    return { user: await embeds.own(user, readerOf(req)) };
  });
  app.post('/follow/:userId', { ...auth, schema: follow('Follow a member') }, async (req) =>
    followAnswer(req, await users.follow(viewerOf(req), req.params.userId)),
  );
  app.post('/unfollow/:userId', { ...auth, schema: follow('Unfollow a member') }, async (req) =>
    followAnswer(req, await users.unfollow(viewerOf(req), req.params.userId)),
  );
};
