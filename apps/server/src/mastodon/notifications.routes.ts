import { mastodon, type NotificationGroup } from '@perch/contract';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { notFound } from '../lib/errors';
import { viewerOf, type Viewer } from '../lib/viewer';
import { arrayParam } from './accounts';
import type { MastodonAuth } from './auth';
import { MastodonMessages } from './auth';
import { statusRenderer, type StatusRenderer } from './hydrate';
import {
  cursorAt,
  cursorBelow,
  keysetOfId,
  keysetOrNull,
  notificationIdOf,
  toGroupedResults,
  toNotifications,
  typeOf,
} from './notifications';
import { limitOf, pageParamsSchema, setPageLinks } from './pagination';

const typeList = z.union([z.string(), z.array(z.string())]).optional();
const listQuerySchema = pageParamsSchema.extend({
  types: typeList,
  'types[]': typeList,
  exclude_types: typeList,
  'exclude_types[]': typeList,
});
type ListQuery = z.infer<typeof listQuerySchema>;

const idParams = z.object({ id: z.string().min(1).max(200) });

/** How many groups a page of a walk reads, and how many a walk reads at most. */
const WALK_PAGE = 40;
const WALK_MAX = 1000;

interface Walked {
  groups: NotificationGroup[];
  more: boolean;
}

/**
 * Reads the member's groups newest first from `cursor`, keeping those `keep` accepts, until
 * `enough` says so, the group `boundId` (or an older one) is reached, or the list ends.
 */
async function walk(
  list: (
    cursor: string | undefined,
    limit: number,
  ) => Promise<{
    notifications: NotificationGroup[];
    nextCursor: string | null;
  }>,
  start: { cursor: string | undefined; pageSize: number; boundId: string | null },
  keep: (group: NotificationGroup) => boolean,
  enough: (kept: number) => boolean,
): Promise<Walked> {
  const bound = start.boundId === null ? null : keysetOrNull(start.boundId);
  const groups: NotificationGroup[] = [];
  let cursor = start.cursor;
  let read = 0;
  for (;;) {
    const page = await list(cursor, start.pageSize);
    read += page.notifications.length;
    for (const group of page.notifications) {
      const id = notificationIdOf(group);
      if (bound && (id === start.boundId || Date.parse(group.latestAt) < bound[0])) {
        return { groups, more: true };
      }
      if (keep(group)) groups.push(group);
    }
    cursor = page.nextCursor ?? undefined;
    if (cursor === undefined || enough(groups.length) || read >= WALK_MAX) {
      return { groups, more: cursor !== undefined };
    }
  }
}

/** The filter `types[]` and `exclude_types[]` ask for. */
function typeFilter(query: ListQuery): (group: NotificationGroup) => boolean {
  const types = new Set(arrayParam(query, 'types'));
  const excluded = new Set(arrayParam(query, 'exclude_types'));
  return (group) => {
    const type = typeOf(group);
    return (types.size === 0 || types.has(type)) && !excluded.has(type);
  };
}

/**
 * The page of the member's groups Mastodon's parameters ask for, newest first, with its `Link`
 * header.
 */
async function groupsPage(
  app: FastifyInstance,
  request: FastifyRequest<{ Querystring: ListQuery }>,
  reply: FastifyReply,
): Promise<{ groups: NotificationGroup[]; renderer: StatusRenderer }> {
  const viewer = viewerOf(request);
  const { query } = request;
  const limit = limitOf(query, 40, 80);
  const boundId = query.min_id ?? query.since_id ?? null;
  const walked = await walk(
    (cursor, size) => app.services.notifications.list(viewer, { cursor, limit: size }),
    {
      cursor: query.max_id ? cursorBelow(query.max_id) : undefined,
      pageSize: boundId === null ? Math.min(limit + 1, 50) : WALK_PAGE,
      boundId,
    },
    typeFilter(query),
    (kept) => query.min_id === undefined && kept > limit,
  );
  // With min_id the page is the oldest of those above it; otherwise the newest.
  const groups =
    query.min_id === undefined ? walked.groups.slice(0, limit) : walked.groups.slice(-limit);
  const renderer = statusRenderer(app, request);
  const first = groups[0];
  const last = groups[groups.length - 1];
  if (first && last) {
    const more = walked.more || walked.groups.length > limit;
    const ids = { first: notificationIdOf(first), last: notificationIdOf(last) };
    setPageLinks(request, reply, renderer.links.origin, ids, more);
  }
  return { groups, renderer };
}

/**
 * Mastodon's notifications (docs.joinmastodon.org/methods/notifications) over Perch's groups:
 * each group is one notification, its newest member the account (see docs/mastodon-api.md).
 */
export const notificationsRoutes: FastifyPluginAsyncZod<{ auth: MastodonAuth }> = async (
  app,
  { auth },
) => {
  const { notifications } = app.services;
  /** The group a notification id names, as the member sees it now; 404 when it is gone. */
  async function groupOf(viewer: Viewer, id: string): Promise<NotificationGroup> {
    const page = await notifications.list(viewer, { cursor: cursorAt(keysetOfId(id)), limit: 1 });
    const group = page.notifications[0];
    if (!group || notificationIdOf(group) !== id) throw notFound(MastodonMessages.notFound);
    return group;
  }

  app.get(
    '/notifications',
    {
      preHandler: auth.member('read:notifications'),
      schema: {
        querystring: listQuerySchema,
        response: { 200: z.array(mastodon.notificationSchema) },
        summary: "The member's notifications, newest first (types[], exclude_types[])",
      },
    },
    async (request, reply) => {
      const { groups, renderer } = await groupsPage(app, request, reply);
      return toNotifications(app, renderer, viewerOf(request), groups);
    },
  );

  app.get(
    '/notifications/unread_count',
    {
      preHandler: auth.member('read:notifications'),
      schema: {
        response: { 200: mastodon.notificationUnreadCountSchema },
        summary: 'How many notifications are unread',
      },
    },
    async (request) => ({
      count: (await notifications.unreadCount(viewerOf(request))).unreadCount,
    }),
  );

  app.get(
    '/notifications/:id',
    {
      preHandler: auth.member('read:notifications'),
      schema: {
        params: idParams,
        response: { 200: mastodon.notificationSchema },
        summary: 'One notification',
      },
    },
    async (request) => {
      const viewer = viewerOf(request);
      const group = await groupOf(viewer, request.params.id);
      const [notification] = await toNotifications(app, statusRenderer(app, request), viewer, [
        group,
      ]);
      if (!notification) throw notFound(MastodonMessages.notFound);
      return notification;
    },
  );

  app.post(
    '/notifications/clear',
    {
      preHandler: auth.member('write:notifications'),
      schema: { response: { 200: z.object({}) }, summary: 'Remove every notification' },
    },
    async (request) => {
      await notifications.dismiss(viewerOf(request));
      return {};
    },
  );

  app.post(
    '/notifications/:id/dismiss',
    {
      preHandler: auth.member('write:notifications'),
      schema: {
        params: idParams,
        response: { 200: z.object({}) },
        summary: 'Remove one notification',
      },
    },
    async (request) => {
      const viewer = viewerOf(request);
      const [, groupKey, unread] = keysetOfId(request.params.id);
      await groupOf(viewer, request.params.id);
      await notifications.dismiss(viewer, { groupKey, unread: unread === 1 });
      return {};
    },
  );
};

/**
 * Mastodon's grouped notifications (docs.joinmastodon.org/methods/grouped_notifications): Perch's
 * groups as they are, each account and status once.
 */
export const notificationsV2Routes: FastifyPluginAsyncZod<{ auth: MastodonAuth }> = async (
  app,
  { auth },
) => {
  app.get(
    '/notifications',
    {
      preHandler: auth.member('read:notifications'),
      schema: {
        querystring: listQuerySchema,
        response: { 200: mastodon.groupedNotificationsResultsSchema },
        summary: "The member's notifications in groups, newest first",
      },
    },
    async (request, reply) => {
      const { groups, renderer } = await groupsPage(app, request, reply);
      return toGroupedResults(app, renderer, viewerOf(request), groups);
    },
  );
};
