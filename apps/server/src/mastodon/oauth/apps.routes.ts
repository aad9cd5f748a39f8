import { mastodon } from '@perch/contract';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { unauthorized } from '../../lib/errors';
import { MastodonMessages, type MastodonAuth } from '../auth';

const registrationSchema = z.object({
  client_name: z.string().max(1000),
  redirect_uris: z.union([z.string().max(10_000), z.array(z.string().max(2000)).max(100)]),
  scopes: z.string().max(2000).optional(),
  website: z.string().max(2000).nullish(),
});

/** Mastodon's apps methods (docs.joinmastodon.org/methods/apps). */
export const appsRoutes: FastifyPluginAsyncZod<{ auth: MastodonAuth }> = async (app, { auth }) => {
  const { oauth } = app.services;
  app.post(
    '/apps',
    {
      schema: {
        summary: 'Register an app, for the credentials it signs members in with',
        body: registrationSchema,
        response: { 200: mastodon.credentialApplicationSchema },
      },
    },
    (request) => oauth.register(request.body),
  );
  app.get(
    '/apps/verify_credentials',
    {
      preHandler: auth.app(),
      schema: {
        summary: 'The app the token was granted to',
        response: { 200: mastodon.applicationSchema },
      },
    },
    async (request) => {
      const found = await oauth.application(request.oauthAppId ?? '');
      if (!found) throw unauthorized(MastodonMessages.invalidToken);
      return found;
    },
  );
};
