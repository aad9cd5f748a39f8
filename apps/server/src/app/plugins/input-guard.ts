import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import { containsNul } from '../../platform/db/dialect';
import { badRequest } from '../../lib/errors';

export const NUL_REFUSED = 'Text must not contain NUL characters.';

/** See containsNul: NUL is refused in params, query and body alike. */
export const inputGuard = fp((app: FastifyInstance) => {
  app.addHook('preValidation', async (request) => {
    if (containsNul(request.params) || containsNul(request.query) || containsNul(request.body)) {
      throw badRequest(NUL_REFUSED);
    }
  });
});
