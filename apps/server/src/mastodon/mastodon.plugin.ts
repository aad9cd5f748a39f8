import { mastodon } from '@perch/contract';
import type { FastifyPluginAsync } from 'fastify';
import { describeRoute } from '../app/plugins/openapi';
import { accountStatusesRoutes } from './account-statuses.routes';
import { accountsRoutes } from './accounts.routes';
import { accountListsRoutes } from './accounts-lists.routes';
import { preferencesRoutes } from './accounts-preferences.routes';
import { accountRelationsRoutes } from './accounts-relations.routes';
import { instanceRoutes, instanceV2Routes } from './instance.routes';
import { markersRoutes } from './markers.routes';
import { nodeInfoRoutes } from './nodeinfo.routes';
import { notificationsRoutes, notificationsV2Routes } from './notifications.routes';
import { mastodonAuth } from './auth';
import { useMastodonNotFound } from './errors';
import { parseForm } from './form';
import { mediaRoutes, mediaV2Routes } from './media.routes';
import { appsRoutes } from './oauth/apps.routes';
import { oauthRoutes } from './oauth/oauth.routes';
import { pollsRoutes } from './polls.routes';
import { statusActionsRoutes } from './statuses-actions.routes';
import { statusListsRoutes } from './statuses-lists.routes';
import { statusesRoutes } from './statuses.routes';
import { timelinesRoutes } from './timelines.routes';

/**
 * Mastodon's client API (docs.joinmastodon.org/methods), so that the apps people already use work
 * with Perch: a thin mapping of its methods and entities onto Perch's own services, which keep
 * every rule. Its errors answer in Mastodon's shape.
 */
export const mastodonApi: FastifyPluginAsync = async (app) => {
  const auth = mastodonAuth(app);
  // Mastodon's clients send form-encoded bodies as often as JSON.
  app.addContentTypeParser(
    'application/x-www-form-urlencoded',
    { parseAs: 'string' },
    (_request, body, done) => {
      done(null, parseForm(body as string));
    },
  );
  app.addHook('onRoute', (route) => {
    const schema = (route.schema ??= {});
    schema.response = { ...mastodon.errorResponseSchemas, ...(schema.response as object) };
    describeRoute(route, 'mastodon', 'optional');
  });
  await app.register(
    async (v1) => {
      useMastodonNotFound(v1);
      await v1.register(accountsRoutes, { auth });
      await v1.register(accountListsRoutes, { auth });
      await v1.register(accountRelationsRoutes, { auth });
      await v1.register(preferencesRoutes, { auth });
      await v1.register(markersRoutes, { auth });
      await v1.register(instanceRoutes);
      await v1.register(appsRoutes, { auth });
      await v1.register(statusesRoutes, { auth });
      await v1.register(statusActionsRoutes, { auth });
      await v1.register(statusListsRoutes, { auth });
      await v1.register(timelinesRoutes, { auth });
      await v1.register(accountStatusesRoutes, { auth });
      await v1.register(pollsRoutes, { auth });
      await v1.register(mediaRoutes, { auth });
      await v1.register(notificationsRoutes, { auth });
    },
    { prefix: '/api/v1' },
  );
  await app.register(
    async (v2) => {
      useMastodonNotFound(v2);
      await v2.register(instanceV2Routes);
      await v2.register(mediaV2Routes, { auth });
      await v2.register(notificationsV2Routes, { auth });
    },
    { prefix: '/api/v2' },
  );
  await app.register(nodeInfoRoutes);
  await app.register(oauthRoutes);
};
