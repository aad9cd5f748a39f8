import { mastodon } from '@perch/contract';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { viewerOf } from '../lib/viewer';
import type { MastodonAuth } from './auth';

/**
 * GET /api/v1/preferences from Perch's reading preferences: "always show sensitive media" is
 * Mastodon's `reading:expand:media` show_all. Perch has no visibility, language or default
 * sensitivity for new posts: every post is public.
 */
export const preferencesRoutes: FastifyPluginAsyncZod<{ auth: MastodonAuth }> = async (
  app,
  { auth },
) => {
  const { account } = app.services;
  app.get(
    '/preferences',
    {
      preHandler: auth.member('read:accounts'),
      schema: {
        summary: "The member's posting and reading preferences",
        response: { 200: mastodon.preferencesSchema },
      },
    },
    async (request) => {
      const preferences = await account.preferences(viewerOf(request));
      return {
        'posting:default:visibility': 'public' as const,
        'posting:default:sensitive': false,
        'posting:default:language': null,
        'reading:expand:media': preferences.alwaysShowSensitiveMedia
          ? ('show_all' as const)
          : ('default' as const),
        'reading:expand:spoilers': false,
      };
    },
  );
};
