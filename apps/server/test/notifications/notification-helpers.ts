import { notificationPageSchema, unreadCountSchema, type NotificationGroup } from '@perch/contract';
import type { FastifyInstance } from 'fastify';
import { expect } from 'vitest';
import { drain } from '../events/event-helpers';
import type { Member } from '../factories';
import { call } from '../helpers';
import { bodyOf, withQuery } from '../social/social-helpers';

/** The member's notification page, once everything written so far has been handled. */
export async function pageOf(
  app: FastifyInstance,
  member: Member,
  query: Record<string, string | number> = {},
) {
  await drain(app);
  const response = await call(app, {
    method: 'GET',
    url: withQuery('/api/notifications', query),
    token: member.token,
  });
  return bodyOf(notificationPageSchema, response, 200);
}

export const groupsOf = async (app: FastifyInstance, member: Member) =>
  (await pageOf(app, member)).notifications;

export async function unreadOf(app: FastifyInstance, member: Member): Promise<number> {
  await drain(app);
  const response = await call(app, {
    method: 'GET',
    url: '/api/notifications/unread',
    token: member.token,
  });
  return bodyOf(unreadCountSchema, response, 200).unreadCount;
}

/** POST /api/notifications/read, which must answer {unreadCount: 0}. */
export async function markAllRead(app: FastifyInstance, member: Member): Promise<void> {
  await drain(app);
  const response = await call(app, {
    method: 'POST',
    url: '/api/notifications/read',
    token: member.token,
  });
  expect(bodyOf(unreadCountSchema, response, 200)).toEqual({ unreadCount: 0 });
}

export const actorIds = (group: NotificationGroup | undefined) =>
  group?.actors.map((actor) => actor._id);

/** Awaits a write and asserts its status. */
export async function ok(
  response: Promise<{ statusCode: number; body: string }>,
  status: number,
): Promise<void> {
  const answer = await response;
  expect(answer.statusCode, answer.body).toBe(status);
}
