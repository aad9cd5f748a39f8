import { ErrorMessages } from '@perch/contract';
import type { Socket } from 'node:net';
import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import { hasZodFastifySchemaValidationErrors } from 'fastify-type-provider-zod';
import { isConnectionLost, isForeignKeyViolation } from '../../platform/db/dialect';
import { AppError } from '../../lib/errors';
import { ResponseMismatchError } from './response-serializer';
import { securityHeadersFor } from './security-headers';

// zod's own wording begins with one of these; our schemas' messages name their field already.
const GENERIC_MESSAGE = /^(Invalid|Too|Unrecognized|Expected)/;

function describeValidation(
  part: string | undefined,
  issues: { instancePath: string; message?: string }[],
): string[] {
  return issues.map(({ instancePath, message = 'is invalid' }) => {
    if (!GENERIC_MESSAGE.test(message)) return message;
    const field = instancePath.replace(/^\//, '').replaceAll('/', '.');
    return `${field || (part ?? 'request')}: ${message}`;
  });
}

/**
 * Errors the router meets before any route or hook runs (Fastify's `frameworkErrors`): an address
 * that does not decode, a path segment longer than any id. Same shape and headers as every other
 * error, which the onRequest hooks would have set.
 */
export function answerFrameworkError(
  error: FastifyError,
  request: FastifyRequest,
  reply: FastifyReply,
): void {
  void reply.headers(securityHeadersFor(request.url));
  const [status, message] =
    error.code === 'FST_ERR_MAX_PARAM_LENGTH'
      ? [414, ErrorMessages.urlTooLong]
      : error.code === 'FST_ERR_BAD_URL'
        ? [400, ErrorMessages.badUrl]
        : [error.statusCode ?? 400, ErrorMessages.badRequest];
  void reply.status(status).send({ errors: [message] });
}

/**
 * Requests Node's HTTP parser refuses (malformed request lines or headers, headers too large):
 * answered in the same shape, then the connection closes, as it cannot be read any further.
 */
export function answerClientError(error: Error & { code?: string }, socket: Socket): void {
  if (!socket.writable) return;
  const [status, reason] =
    error.code === 'HPE_HEADER_OVERFLOW'
      ? [431, 'Request Header Fields Too Large']
      : [400, 'Bad Request'];
  const body = JSON.stringify({ errors: [ErrorMessages.badRequest] });
  socket.end(
    `HTTP/1.1 ${status} ${reason}\r\nContent-Type: application/json; charset=utf-8\r\n` +
      `Content-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n${body}`,
  );
}

/** One place turns every failure into a status and an {errors: [...]} body. */
export const errorHandler = fp((app: FastifyInstance) => {
  app.setErrorHandler((error: FastifyError | AppError, request, reply) => {
    if (error instanceof AppError) {
      return reply.status(error.statusCode).send({ errors: [error.message] });
    }
    if (hasZodFastifySchemaValidationErrors(error)) {
      return reply
        .status(400)
        .send({ errors: describeValidation(error.validationContext, error.validation) });
    }
    if (isConnectionLost(error)) {
      request.log.warn({ err: error }, 'database connection lost');
      return reply
        .status(503)
        .header('retry-after', '1')
        .send({ errors: [ErrorMessages.databaseUnavailable] });
    }
    if (isForeignKeyViolation(error)) {
      // A write naming a row deleted while it ran. Writes under a post lock the post first (and
      // answer 404 Post not found), so what is left is a member who deleted their account
      // meanwhile: the writer themselves, or the member they follow or mention.
      return reply.status(404).send({ errors: [ErrorMessages.userNotFound] });
    }
    const status = error.statusCode ?? 500;
    if (status >= 400 && status < 500) {
      // Fastify's own client errors (malformed JSON, body too large, rate limit): their text is clear.
      return reply.status(status).send({ errors: [error.message] });
    }
    request.log.error({ err: error }, 'unhandled error');
    // Only with responses checked (tests): the mismatch is named where the test shows the answer.
    if (error instanceof ResponseMismatchError) {
      return reply.status(500).send({ errors: [ErrorMessages.internal, error.message] });
    }
    return reply.status(500).send({ errors: [ErrorMessages.internal] });
  });
});
