import { mastodon } from '@perch/contract';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { notFound } from '../lib/errors';
import { viewerOf } from '../lib/viewer';
import { accountOf, memberById } from './accounts';
import {
  acceptCredentialForms,
  CREDENTIALS_BODY_LIMIT,
  profileChanges,
  readCredentialsForm,
  uploadAvatar,
  uploadRateLimit,
} from './accounts-credentials';
import { MastodonMessages, type MastodonAuth } from './auth';
import { linksOf } from './context';
import { statusDateOf, toCredentialAccount } from './entities/account';

const idParams = z.object({ id: z.string().min(1).max(64) });

/** Mastodon's accounts methods (docs.joinmastodon.org/methods/accounts) over Perch's members. */
export const accountsRoutes: FastifyPluginAsyncZod<{ auth: MastodonAuth }> = async (
  app,
  { auth },
) => {
  const { users } = app.services;
  await acceptCredentialForms(app);

  /** The viewer's own Account, with what only they read. */
  const credentialAccount = async (request: Parameters<typeof viewerOf>[0]) => {
    const viewer = viewerOf(request);
    const { user } = await users.profile(viewer.username, viewer);
    const last = await app.services.posts.lastPostTimes([user._id]);
    return toCredentialAccount(user, linksOf(app, request), {
      lastStatusAt: statusDateOf(last.get(user._id) ?? null),
    });
  };

  app.get(
    '/accounts/verify_credentials',
    {
      preHandler: auth.member('profile'),
      schema: {
        summary: 'The account the token speaks for',
        response: { 200: mastodon.credentialAccountSchema },
      },
    },
    credentialAccount,
  );
  app.patch(
    '/accounts/update_credentials',
    {
      preHandler: auth.member('write:accounts'),
      bodyLimit: CREDENTIALS_BODY_LIMIT,
      config: { rateLimit: uploadRateLimit(app) },
      schema: {
        summary: "Edit the member's profile (display_name, note, avatar)",
        response: { 200: mastodon.credentialAccountSchema },
      },
    },
    async (request) => {
      const viewer = viewerOf(request);
      const form = await readCredentialsForm(request);
      const { user } = await users.profile(viewer.username, viewer);
      const changes = profileChanges(user, form);
      const avatarURL = await uploadAvatar(app, viewer, form.avatar);
      await users.edit(viewer, avatarURL === undefined ? changes : { ...changes, avatarURL });
      return credentialAccount(request);
    },
  );
  app.get(
    '/accounts/lookup',
    {
      preHandler: auth.open('read:accounts'),
      schema: {
        summary: 'The member with this username (acct)',
        querystring: z.object({ acct: z.string().min(1).max(300) }),
        response: { 200: mastodon.accountSchema },
      },
    },
    async (request) => {
      const { origin } = linksOf(app, request);
      const [username, host] = request.query.acct.replace(/^@/, '').split('@');
      // A remote address names someone Perch cannot know: Perch members are all local.
      if (!username || (host !== undefined && host !== new URL(origin).host)) {
        throw notFound(MastodonMessages.notFound);
      }
      const { user } = await users.profile(username, request.viewer);
      return accountOf(app, request, user);
    },
  );
  app.get(
    '/accounts/:id',
    {
      preHandler: auth.open('read:accounts'),
      schema: {
        summary: 'A member',
        params: idParams,
        response: { 200: mastodon.accountSchema },
      },
    },
    async (request) =>
      accountOf(app, request, await memberById(app, request.params.id, request.viewer)),
  );
};
