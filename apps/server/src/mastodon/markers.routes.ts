import { mastodon } from '@perch/contract';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { unprocessable } from '../lib/errors';
import { viewerOf } from '../lib/viewer';
import { arrayParam } from './accounts';
import { acceptUrlEncoded } from './accounts-credentials';
import type { MastodonAuth } from './auth';
import type { MarkerRow } from '../modules/markers/markers.service';

const isTimeline = (name: string): name is mastodon.MarkerTimeline =>
  (mastodon.MARKER_TIMELINES as readonly string[]).includes(name);

const toMarker = (row: MarkerRow): mastodon.Marker => ({
  last_read_id: row.last_read_id,
  version: row.version,
  updated_at: new Date(row.updated_at).toISOString(),
});

const lastReadIdSchema = z.string().min(1).max(64);

/**
 * The position sent for a timeline: `{home: {last_read_id}}` as JSON, or `home[last_read_id]` as a
 * form field; undefined when the timeline was not sent.
 */
function positionOf(body: Record<string, unknown>, timeline: string): string | undefined {
  const nested = body[timeline];
  const value =
    nested !== null && typeof nested === 'object'
      ? (nested as Record<string, unknown>).last_read_id
      : body[`${timeline}[last_read_id]`];
  if (value === undefined) return undefined;
  const parsed = lastReadIdSchema.safeParse(typeof value === 'number' ? String(value) : value);
  if (!parsed.success)
    throw unprocessable(`Validation failed: ${timeline}[last_read_id] is invalid`);
  return parsed.data;
}

/**
 * Mastodon's markers (docs.joinmastodon.org/methods/markers): where the member stopped reading
 * Home and their notifications, saved by one app and read by another.
 */
export const markersRoutes: FastifyPluginAsyncZod<{ auth: MastodonAuth }> = async (
  app,
  { auth },
) => {
  acceptUrlEncoded(app);
  const { markers } = app.services;
  const answer = (rows: readonly MarkerRow[]): mastodon.Markers =>
    Object.fromEntries(rows.map((row) => [row.timeline, toMarker(row)]));

  app.get(
    '/markers',
    {
      preHandler: auth.member('read:statuses'),
      schema: {
        summary: 'Where the member stopped reading these timelines (timeline[])',
        querystring: z.record(z.string(), z.union([z.string(), z.array(z.string())])),
        response: { 200: mastodon.markersSchema },
      },
    },
    async (request) => {
      const timelines = [...new Set(arrayParam(request.query, 'timeline'))].filter(isTimeline);
      return answer(await markers.read(viewerOf(request), timelines));
    },
  );
  app.post(
    '/markers',
    {
      preHandler: auth.member('write:statuses'),
      schema: {
        summary: 'Save where the member stopped reading home and notifications',
        body: z.record(z.string(), z.unknown()).optional(),
        response: { 200: mastodon.markersSchema },
      },
    },
    async (request) => {
      const body = request.body ?? {};
      const positions = new Map<string, string>();
      for (const timeline of mastodon.MARKER_TIMELINES) {
        const position = positionOf(body, timeline);
        if (position !== undefined) positions.set(timeline, position);
      }
      return answer(await markers.save(viewerOf(request), positions));
    },
  );
};
