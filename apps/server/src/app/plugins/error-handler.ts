import { ErrorMessages } from '@perch/contract';
import type { ServerResponse } from 'node:http';
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
  void reply
    .status(status)
    .send(inMastodonApi(request.url) ? { error: message } : { errors: [message] });
}

/**
 * Mastodon's client API, its OAuth and the discovery documents it serves answer errors in
 * Mastodon's shape (see mastodon/errors.ts).
 */
export const inMastodonApi = (url: string): boolean =>
  /^\/(api\/v[12]|oauth|nodeinfo)(\/|\?|$)|^\/\.well-known\/(oauth-authorization-server|nodeinfo)(\/|\?|$)/.test(
    url,
  );

export const REQUEST_TIMEOUT_MESSAGE = 'The request took too long to arrive.';

/** The answer in flight on a connection; Node's own handler of these errors reads it too. */
const responseOf = (socket: Socket): ServerResponse | undefined =>
  (socket as Socket & { _httpMessage?: ServerResponse })._httpMessage;

function rawAnswer(status: number, reason: string, message: string): string {
  const body = JSON.stringify({ errors: [message] });
  return (
    `HTTP/1.1 ${String(status)} ${reason}\r\nContent-Type: application/json; charset=utf-8\r\n` +
    `Cache-Control: no-store\r\nContent-Length: ${String(Buffer.byteLength(body))}\r\n` +
    `Connection: close\r\n\r\n${body}`
  );
}

/**
 * A request whose headers or whole body did not arrive within headersTimeout or requestTimeout
 * (see timeoutOptions in app.ts): 408 if nothing of an answer was written yet, then the connection
 * ends, so that a route still waiting for the body sees it cut off and never runs on it.
 */
function answerTimeout(socket: Socket): void {
  if (!socket.writable || responseOf(socket)?.headersSent === true) {
    socket.destroy();
    return;
  }
  socket.end(rawAnswer(408, 'Request Timeout', REQUEST_TIMEOUT_MESSAGE), () => {
    socket.destroy();
  });
}

/**
 * Requests Node's HTTP parser refuses (malformed request lines or headers, headers too large):
 * answered in the same shape, then the connection closes, as it cannot be read any further.
 */
export function answerClientError(error: Error & { code?: string }, socket: Socket): void {
  if (error.code === 'ERR_HTTP_REQUEST_TIMEOUT') {
    answerTimeout(socket);
    return;
  }
  if (!socket.writable) return;
  const [status, reason] =
    error.code === 'HPE_HEADER_OVERFLOW'
      ? [431, 'Request Header Fields Too Large']
      : [400, 'Bad Request'];
  socket.end(rawAnswer(status, reason, ErrorMessages.badRequest));
}

/** What a failure answers, whatever the wire shape of the API it happened in. */
export interface ErrorAnswer {
  status: number;
  messages: string[];
  retryAfter?: string;
}

/**
 * One place decides every failure's status and messages; each API writes them in its own shape
 * (Perch's {errors: [...]}, Mastodon's {error}).
 */
export function answerFor(error: FastifyError | AppError, request: FastifyRequest): ErrorAnswer {
  if (error instanceof AppError) return { status: error.statusCode, messages: [error.message] };
  if (hasZodFastifySchemaValidationErrors(error)) {
    return {
      status: 400,
      messages: describeValidation(error.validationContext, error.validation),
    };
  }
  if (isConnectionLost(error)) {
    request.log.warn({ err: error }, 'database connection lost');
    return { status: 503, messages: [ErrorMessages.databaseUnavailable], retryAfter: '1' };
  }
  if (isForeignKeyViolation(error)) {
    // A write naming a row deleted while it ran. Writes under a post lock the post first (and
    // answer 404 Post not found), so what is left is a member who deleted their account
    // meanwhile: the writer themselves, or the member they follow or mention.
    return { status: 404, messages: [ErrorMessages.userNotFound] };
  }
  const status = error.statusCode ?? 500;
  if (status >= 400 && status < 500) {
    // Fastify's own client errors (malformed JSON, body too large, rate limit): their text is clear.
    return { status, messages: [error.message] };
  }
  request.log.error({ err: error }, 'unhandled error');
  // Only with responses checked (tests): the mismatch is named where the test shows the answer.
  if (error instanceof ResponseMismatchError) {
    return { status: 500, messages: [ErrorMessages.internal, error.message] };
  }
  return { status: 500, messages: [ErrorMessages.internal] };
}

/** Perch's API answers every failure as a status and an {errors: [...]} body. */
export const errorHandler = fp((app: FastifyInstance) => {
  app.setErrorHandler((error: FastifyError | AppError, request, reply) => {
    const answer = answerFor(error, request);
    if (answer.retryAfter !== undefined) void reply.header('retry-after', answer.retryAfter);
    if (!inMastodonApi(request.url)) {
      return reply.status(answer.status).send({ errors: answer.messages });
    }
    // Mastodon's client API answers {error}, wherever the failure arose (a route, a body that does
    // not parse, an unknown path below it); parameters that do not validate answer 422, as its
    // validation failures do.
    const text = answer.messages.join('; ');
    return hasZodFastifySchemaValidationErrors(error)
      ? reply.status(422).send({ error: `Validation failed: ${text}` })
      : reply.status(answer.status).send({ error: text });
  });
});
