import { pageQuerySchema, userIdParamsSchema } from '@perch/contract';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { viewerOf } from '../../lib/viewer';

/**
 * Under /api/users, beside follow: registered before the users routes, so that /me/blocked and
 * /me/muted are never read as a member's page (GET /:username takes one segment only anyway).
 */
export const safetyRoutes: FastifyPluginAsyncZod = async (app) => {
  const { safety } = app.services;
  const auth = { preHandler: app.authenticate };
  const byId = { ...auth, schema: { params: userIdParamsSchema } };
  const page = { ...auth, schema: { querystring: pageQuerySchema } };

  app.post('/block/:userId', byId, async (req, reply) => {
    await safety.block(viewerOf(req), req.params.userId);
    return reply.status(204).send();
  });
  app.post('/unblock/:userId', byId, async (req, reply) => {
    await safety.unblock(viewerOf(req), req.params.userId);
    return reply.status(204).send();
  });
  app.post('/mute/:userId', byId, async (req, reply) => {
    await safety.mute(viewerOf(req), req.params.userId);
    return reply.status(204).send();
  });
  app.post('/unmute/:userId', byId, async (req, reply) => {
    await safety.unmute(viewerOf(req), req.params.userId);
    return reply.status(204).send();
  });
  app.get('/me/blocked', page, (req) => safety.blocked(viewerOf(req), req.query));
  app.get('/me/muted', page, (req) => safety.muted(viewerOf(req), req.query));
};
