import {
  noContentSchema,
  pageQuerySchema,
  userIdParamsSchema,
  userPageSchema,
} from '@perch/contract';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { viewerOf } from '../../lib/viewer';

/**
 * Under /api/users, beside follow: registered before the users routes, so that /me/blocked and
 * /me/muted are never read as a member's page (GET /:username takes one segment only anyway).
 */
export const safetyRoutes: FastifyPluginAsyncZod = async (app) => {
  const { safety } = app.services;
  const auth = { preHandler: app.authenticate };
  const byId = (summary: string) => ({
    ...auth,
    schema: { params: userIdParamsSchema, response: { 204: noContentSchema }, summary },
  });
  const page = (summary: string) => ({
    ...auth,
    schema: { querystring: pageQuerySchema, response: { 200: userPageSchema }, summary },
  });

  app.post('/block/:userId', byId('Block a member'), async (req, reply) => {
    await safety.block(viewerOf(req), req.params.userId);
    return reply.status(204).send();
  });
  app.post('/unblock/:userId', byId('Unblock a member'), async (req, reply) => {
    await safety.unblock(viewerOf(req), req.params.userId);
    return reply.status(204).send();
  });
  app.post('/mute/:userId', byId('Mute a member'), async (req, reply) => {
    await safety.mute(viewerOf(req), req.params.userId);
    return reply.status(204).send();
  });
  app.post('/unmute/:userId', byId('Unmute a member'), async (req, reply) => {
    await safety.unmute(viewerOf(req), req.params.userId);
    return reply.status(204).send();
  });
  app.get('/me/blocked', page('The members the member blocked'), (req) =>
    safety.blocked(viewerOf(req), req.query),
  );
  app.get('/me/muted', page('The members the member muted'), (req) =>
    safety.muted(viewerOf(req), req.query),
  );
};
