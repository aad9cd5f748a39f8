import { setTimeout } from 'node:timers/promises';
import type { FastifyInstance, RouteHandlerMethod } from 'fastify';
import fp from 'fastify-plugin';
import { isConnectionLost } from '../../platform/db/dialect';

const RETRY_DELAY_MS = 100;

/**
 * A read caught by a dropped database connection is tried once more (a restart or failover often
 * leaves only the pooled connection dead; the next one works). Writes are not: whether they
 * committed is unknown, and the client decides. Nothing is retried once the answer has begun.
 */
export const readRetry = fp((app: FastifyInstance) => {
  app.addHook('onRoute', (route) => {
    const methods = Array.isArray(route.method) ? route.method : [route.method];
    const reads = methods.every((method) => method === 'GET' || method === 'HEAD');
    // Only the API reads the database; static files and media are left exactly as they are.
    if (!reads || !route.url.startsWith('/api/')) return;
    const handler = route.handler as RouteHandlerMethod;
    route.handler = function retrying(request, reply) {
      const answer: unknown = handler.call(this, request, reply);
      // A handler that answers through reply.send later must keep returning what it returned.
      if (!(answer instanceof Promise)) return answer;
      return answer.catch(async (error: unknown) => {
        if (!isConnectionLost(error) || reply.sent || reply.raw.headersSent) throw error;
        request.log.warn({ err: error }, 'database connection lost; reading again');
        // Other pooled connections died with this one; their errors arrive on their sockets
        // meanwhile and the pool drops them, so the second try gets a live one.
        await setTimeout(RETRY_DELAY_MS);
        return handler.call(this, request, reply);
      });
    };
  });
});
