import { pageQuerySchema } from '@perch/contract';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { viewerOf } from '../../lib/viewer';

export const notificationsRoutes: FastifyPluginAsyncZod = async (app) => {
  const { notifications } = app.services;
  const auth = { preHandler: app.authenticate };

  app.get('/', { ...auth, schema: { querystring: pageQuerySchema } }, (req) =>
    notifications.list(viewerOf(req), req.query),
  );
  app.get('/unread', auth, (req) => notifications.unreadCount(viewerOf(req)));
  app.post('/read', auth, (req) => notifications.markAllRead(viewerOf(req)));
};
