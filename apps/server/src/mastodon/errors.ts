import type { FastifyError, FastifyInstance } from 'fastify';
import { hasZodFastifySchemaValidationErrors } from 'fastify-type-provider-zod';
import { answerFor } from '../app/plugins/error-handler';
import type { AppError } from '../lib/errors';

/**
 * Mastodon's client API answers failures as {error}: the same status and words Perch's own API
 * gives (answerFor), in Mastodon's shape. Parameters that do not validate answer 422, as
 * Mastodon's validation failures do.
 */
export function useMastodonErrors(app: FastifyInstance): void {
  app.setErrorHandler((error: FastifyError | AppError, request, reply) => {
    const answer = answerFor(error, request);
    if (answer.retryAfter !== undefined) void reply.header('retry-after', answer.retryAfter);
    const validation = hasZodFastifySchemaValidationErrors(error);
    const status = validation ? 422 : answer.status;
    const text = answer.messages.join('; ');
    return reply.status(status).send({ error: validation ? `Validation failed: ${text}` : text });
  });
}

/** Unknown methods under one of the API's prefixes answer 404 in Mastodon's shape. */
export function useMastodonNotFound(app: FastifyInstance): void {
  app.setNotFoundHandler((_request, reply) => reply.status(404).send({ error: 'Not Found' }));
}
