import type { FastifyInstance, FastifyRequest } from 'fastify';
import { publicOrigin } from '../lib/public-url';
import type { Links } from './entities/links';

/** Where the entities' absolute links point for this request. */
export const linksOf = (app: FastifyInstance, request: FastifyRequest): Links => ({
  origin: publicOrigin(app.config.publicUrl, request),
});
