import { mastodon } from '@perch/contract';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { viewerOf } from '../lib/viewer';
import type { MastodonAuth } from './auth';
import { linksOf } from './context';
import { toAccount } from './entities/account';

/** Mastodon's accounts methods (docs.joinmastodon.org/methods/accounts) over Perch's members. */
export const accountsRoutes: FastifyPluginAsyncZod<{ auth: MastodonAuth }> = async (
  app,
  { auth },
) => {
  const { users } = app.services;
  app.get(
    '/accounts/verify_credentials',
    {
      preHandler: auth.member('profile'),
      schema: {
        summary: 'The account the token speaks for',
        response: { 200: mastodon.accountSchema },
      },
    },
    async (request) => {
      const viewer = viewerOf(request);
      const { user } = await users.profile(viewer.username, viewer);
      return toAccount(user, linksOf(app, request));
    },
  );
};
