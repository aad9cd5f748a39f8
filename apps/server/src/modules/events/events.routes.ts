import { eventStreamResponseSchema } from '@perch/contract';
import { z } from 'zod';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { viewerOf } from '../../lib/viewer';
import { openSse } from '../../platform/events/sse';
import { badRequest } from '../../lib/errors';

export const HEARTBEAT_MS = 25_000;
// About a thousand events; a client this far behind is better served by a replay.
const MAX_BUFFERED_BYTES = 256 * 1024;

const lastEventIdSchema = z
  .string()
  .regex(/^\d{1,15}$/, 'Last-Event-ID must be an event id.')
  .transform(Number);

export interface EventsRoutesOptions {
  heartbeatMs?: number;
}

/**
 * GET /api/events: the member's live events as Server-Sent Events. A browser's EventSource sends
 * the session cookie and, when it reconnects, Last-Event-ID; what was missed is replayed.
 */
export const eventsRoutes: FastifyPluginAsyncZod<EventsRoutesOptions> = async (app, options) => {
  app.get(
    '/',
    {
      preHandler: app.authenticateSession,
      schema: {
        querystring: z.object({ lastEventId: lastEventIdSchema.optional() }),
        response: { 200: eventStreamResponseSchema },
        summary: "The member's live events; Last-Event-ID replays what was missed",
      },
    },
    async (request, reply) => {
      const header = request.headers['last-event-id'];
      let lastEventId = request.query.lastEventId ?? null;
      if (typeof header === 'string' && header !== '') {
        const parsed = lastEventIdSchema.safeParse(header);
        if (!parsed.success) throw badRequest('Last-Event-ID must be an event id.');
        lastEventId = parsed.data;
      }
      const viewer = viewerOf(request);
      reply.hijack();
      const sse = openSse(reply.raw, {
        heartbeatMs: options.heartbeatMs ?? HEARTBEAT_MS,
        maxBufferedBytes: MAX_BUFFERED_BYTES,
        retryMs: 2000,
      });
      try {
        await app.services.streams.open(viewer, lastEventId, sse);
      } catch (error) {
        request.log.error({ err: error }, 'could not open an event stream');
        sse.close();
      }
    },
  );
};
