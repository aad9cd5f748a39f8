import { notificationPageSchema, pageQuerySchema, unreadCountSchema } from '@perch/contract';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { viewerOf } from '../../lib/viewer';

export const notificationsRoutes: FastifyPluginAsyncZod = async (app) => {
  const { notifications } = app.services;
  const auth = { preHandler: app.authenticate };

  const list = {
    querystring: pageQuerySchema,
    response: { 200: notificationPageSchema },
    summary: "The member's notifications, grouped, newest first",
  };
  const unread = { response: { 200: unreadCountSchema }, summary: 'How many are unread' };
  const read = { response: { 200: unreadCountSchema }, summary: 'Mark every notification read' };
  app.get('/', { ...auth, schema: list }, (req) => notifications.list(viewerOf(req), req.query));
  app.get('/unread', { ...auth, schema: unread }, (req) =>
    notifications.unreadCount(viewerOf(req)),
  );
  app.post('/read', { ...auth, schema: read }, (req) => notifications.markAllRead(viewerOf(req)));
};
