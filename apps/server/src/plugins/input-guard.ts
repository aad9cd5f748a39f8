import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import { badRequest } from '../lib/errors';

export const NUL_REFUSED = 'Text must not contain NUL characters.';

function containsNul(value: unknown): boolean {
  if (typeof value === 'string') return value.includes('\u0000');
  if (Array.isArray(value)) return value.some(containsNul);
  if (value !== null && typeof value === 'object') return Object.values(value).some(containsNul);
  return false;
}

/**
 * PostgreSQL cannot store NUL in text while SQLite can; refusing it at the door keeps both
 * databases answering the same way.
 */
export const inputGuard = fp((app: FastifyInstance) => {
  app.addHook('preValidation', async (request) => {
    if (containsNul(request.params) || containsNul(request.query) || containsNul(request.body)) {
      throw badRequest(NUL_REFUSED);
    }
  });
});
