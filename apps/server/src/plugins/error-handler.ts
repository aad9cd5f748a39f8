import { ErrorMessages } from '@perch/contract';
import type { FastifyError, FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import { hasZodFastifySchemaValidationErrors } from 'fastify-type-provider-zod';
import { AppError } from '../lib/errors';

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
    const status = error.statusCode ?? 500;
    if (status >= 400 && status < 500) {
      // Fastify's own client errors (malformed JSON, body too large, rate limit): their text is clear.
      return reply.status(status).send({ errors: [error.message] });
    }
    request.log.error({ err: error }, 'unhandled error');
    return reply.status(500).send({ errors: [ErrorMessages.internal] });
  });
});
