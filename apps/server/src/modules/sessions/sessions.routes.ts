import { noContentSchema, sessionListSchema, sessionParamsSchema } from '@perch/contract';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { clearSessionCookie } from '../../lib/session-cookie';
import { viewerOf } from '../../lib/viewer';

/** The member's signed-in devices: listed, and ended one by one. */
export const sessionsRoutes: FastifyPluginAsyncZod = async (app) => {
  const { sessions } = app.services;
  const auth = { preHandler: app.authenticate };

  const list = {
    response: { 200: sessionListSchema },
    summary: "The member's signed-in devices, most recently used first",
  };
  app.get('/', { ...auth, schema: list }, (req) => sessions.list(viewerOf(req)));
  app.delete(
    '/:sessionId',
    {
      ...auth,
      schema: {
        params: sessionParamsSchema,
        response: { 204: noContentSchema },
        summary: 'Sign one device out',
      },
    },
    async (req, reply) => {
      const viewer = viewerOf(req);
      await sessions.revokeOne(viewer, req.params.sessionId);
      // Ending this very session is a logout.
      if (req.params.sessionId === viewer.sessionId) clearSessionCookie(reply);
      return reply.status(204).send();
    },
  );
};
