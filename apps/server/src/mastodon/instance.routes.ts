import { mastodon } from '@perch/contract';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { linksOf } from './context';
import { instanceV1, instanceV2 } from './instance';

/**
 * Mastodon's instance methods under /api/v1 (docs.joinmastodon.org/methods/instance). Public: a
 * token, when sent, is not read.
 */
export const instanceRoutes: FastifyPluginAsyncZod = async (app) => {
  const { instance } = app.services;
  app.get(
    '/instance',
    {
      schema: {
        summary: 'The server, in the older shape',
        response: { 200: mastodon.v1InstanceSchema },
      },
    },
    async (request) => instanceV1(linksOf(app, request), await instance.counts()),
  );
  app.get(
    '/instance/rules',
    {
      schema: { summary: "The server's rules", response: { 200: z.array(mastodon.ruleSchema) } },
    },
    () => [],
  );
  app.get(
    '/custom_emojis',
    {
      schema: {
        summary: 'Custom emoji (Perch has none)',
        response: { 200: z.array(mastodon.customEmojiSchema) },
      },
    },
    () => [],
  );
};

/** GET /api/v2/instance. */
export const instanceV2Routes: FastifyPluginAsyncZod = async (app) => {
  const { instance } = app.services;
  app.get(
    '/instance',
    {
      schema: {
        summary: 'The server, its limits and how to join it',
        response: { 200: mastodon.instanceSchema },
      },
    },
    async (request) => instanceV2(linksOf(app, request), await instance.counts()),
  );
};
