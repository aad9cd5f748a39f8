import { mastodon } from '@perch/contract';
import type { FastifyInstance } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { linksOf } from './context';
import { instanceV1, instanceV2 } from './instance';
import { readCounts, type InstanceCounts } from './instance.repository';

/** Counting every post on each request would cost a scan: the counts are read once a minute. */
const COUNTS_TTL_MS = 60_000;

/** The instance's counts, read at most once per COUNTS_TTL_MS. */
export function instanceCounts(app: FastifyInstance): () => Promise<InstanceCounts> {
  let kept: { at: number; counts: Promise<InstanceCounts> } | null = null;
  return () => {
    const now = Date.now();
    if (kept === null || now - kept.at > COUNTS_TTL_MS) {
      const counts = readCounts(app.db, now);
      kept = { at: now, counts };
      // A failed read is not kept: the next request tries again.
      counts.catch(() => {
        if (kept?.counts === counts) kept = null;
      });
    }
    return kept.counts;
  };
}

/**
 * Mastodon's instance methods under /api/v1 (docs.joinmastodon.org/methods/instance). Public: a
 * token, when sent, is not read.
 */
export const instanceRoutes: FastifyPluginAsyncZod = async (app) => {
  const counts = instanceCounts(app);
  app.get(
    '/instance',
    {
      schema: {
        summary: 'The server, in the older shape',
        response: { 200: mastodon.v1InstanceSchema },
      },
    },
    async (request) => instanceV1(linksOf(app, request), await counts()),
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
  const counts = instanceCounts(app);
  app.get(
    '/instance',
    {
      schema: {
        summary: 'The server, its limits and how to join it',
        response: { 200: mastodon.instanceSchema },
      },
    },
    async (request) => instanceV2(linksOf(app, request), await counts()),
  );
};
