import type { FastifyInstance } from 'fastify';

/** Unknown methods under one of the API's prefixes answer 404 in Mastodon's shape. */
export function useMastodonNotFound(app: FastifyInstance): void {
  app.setNotFoundHandler((_request, reply) => reply.status(404).send({ error: 'Not Found' }));
}
