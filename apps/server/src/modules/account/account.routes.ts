import {
  AccountErrors,
  EXPORTS_PER_HOUR,
  accountExportResponseSchema,
  noContentSchema,
  accountDeleteBodySchema,
  passwordChangeBodySchema,
  preferencesSchema,
  preferencesUpdateBodySchema,
  privacySettingsSchema,
  privacyUpdateBodySchema,
} from '@perch/contract';
import type { FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { clearSessionCookie } from '../../lib/session-cookie';
import { viewerOf } from '../../lib/viewer';
import { AppError } from '../../lib/errors';

/** After authentication, so that each member has an allowance of their own. */
const perMember = {
  hook: 'preHandler' as const,
  keyGenerator: (request: FastifyRequest) =>
    request.viewer ? `member:${request.viewer.id}` : request.ip,
};

/** The member's settings: GET and PATCH /account/privacy and /account/preferences. */
const settingsRoutes: FastifyPluginAsyncZod = async (app) => {
  const { account } = app.services;
  app.get(
    '/account/privacy',
    {
      preHandler: app.authenticate,
      schema: {
        response: { 200: privacySettingsSchema },
        summary: "The member's privacy settings",
      },
    },
    async (req) => account.privacy(viewerOf(req)),
  );
  app.patch(
    '/account/privacy',
    {
      preHandler: app.authenticate,
      schema: {
        body: privacyUpdateBodySchema,
        response: { 200: privacySettingsSchema },
        summary: 'Change either privacy setting or both; answers them as they are now',
      },
    },
    async (req) => account.changePrivacy(viewerOf(req), req.body),
  );
  app.get(
    '/account/preferences',
    {
      preHandler: app.authenticate,
      schema: {
        response: { 200: preferencesSchema },
        summary: "The member's reading preferences",
      },
    },
    async (req) => account.preferences(viewerOf(req)),
  );
  app.patch(
    '/account/preferences',
    {
      preHandler: app.authenticate,
      schema: {
        body: preferencesUpdateBodySchema,
        response: { 200: preferencesSchema },
        summary: 'Change reading preferences; answers them as they are now',
      },
    },
    async (req) => account.changePreferences(viewerOf(req), req.body),
  );
};

/**
 * The member's own account: POST /auth/password, DELETE /users/me, GET /users/me/export, GET and
 * PATCH /account/privacy, GET and PATCH /account/preferences.
 */
export const accountRoutes: FastifyPluginAsyncZod = async (app) => {
  const { account, exports } = app.services;
  // Both take the password: guessing it with a stolen token should be as slow as logging in.
  const perMinute = app.config.authRateLimitPerMinute;
  const passwordLimit =
    perMinute > 0 ? { max: perMinute, timeWindow: '1 minute', ...perMember } : false;
  const exportLimit = {
    max: EXPORTS_PER_HOUR,
    timeWindow: '1 hour',
    ...perMember,
    errorResponseBuilder: () => new AppError(429, AccountErrors.exportTooOften),
  };

  app.post(
    '/auth/password',
    {
      preHandler: app.authenticate,
      config: { rateLimit: passwordLimit },
      schema: {
        body: passwordChangeBodySchema,
        response: { 204: noContentSchema },
        summary: 'Change the password; every other session ends',
      },
    },
    async (req, reply) => {
      await account.changePassword(viewerOf(req), req.body);
      return reply.status(204).send();
    },
  );
  app.delete(
    '/users/me',
    {
      preHandler: app.authenticate,
      config: { rateLimit: passwordLimit },
      schema: {
        body: accountDeleteBodySchema,
        response: { 204: noContentSchema },
        summary: "Delete the member's account and everything in it",
      },
    },
    async (req, reply) => {
      await account.deleteAccount(viewerOf(req), req.body);
      clearSessionCookie(reply);
      return reply.status(204).send();
    },
  );
  app.get(
    '/users/me/export',
    // A HEAD would run the whole export to throw it away.
    {
      preHandler: app.authenticate,
      config: { rateLimit: exportLimit },
      exposeHeadRoute: false,
      schema: {
        response: { 200: accountExportResponseSchema },
        summary: "Download the member's data as a zip file",
      },
    },
    async (req, reply) => {
      const { fileName, stream } = await exports.open(viewerOf(req));
      return reply
        .header('content-type', 'application/zip')
        .header('content-disposition', `attachment; filename="${fileName}"`)
        .send(stream);
    },
  );
  await app.register(settingsRoutes);
};
