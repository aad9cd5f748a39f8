import {
  type NotificationGroup,
  type NotificationKind,
  type NotificationPage,
  type PageQuery,
  type UnreadCount,
} from '@perch/contract';
import type { Kysely } from 'kysely';
import type { Viewer } from '../../auth/viewer';
import type { Database } from '../../db/schema';
import { idListValue } from '../../db/dialect';
import type { EventRecorder, Transact } from '../../events/transactions';
import { decodeCursor, pageOf } from '../../lib/cursor';
import { toIso } from '../../lib/time';
import { toUserStub } from '../users/users.mapper';
import { notificationsConsumer } from './notifications.handler';
import * as repo from './notifications.repository';

type Db = Kysely<Database>;

// A notification shows the start of the post; the card has the rest.
const EXCERPT_MAX = 280;

function excerpt(text: string): string {
  const characters = Array.from(text);
  return characters.length <= EXCERPT_MAX
    ? text
    : `${characters.slice(0, EXCERPT_MAX).join('').trimEnd()}…`;
}

function toGroups(groups: repo.GroupRow[], actors: repo.ActorRow[]): NotificationGroup[] {
  return groups.map((group) => {
    const own = actors.filter(
      (actor) => actor.group_key === group.group_key && actor.unread === group.unread,
    );
    const unread = group.unread === 1;
    const id = `${group.group_key}:${unread ? 'unread' : 'read'}`;
    return {
      _id: id,
      id,
      kind: group.kind as NotificationKind,
      actors: own.map(toUserStub),
      actorCount: group.actor_count,
      post:
        group.post_id && group.post_content !== null
          ? {
              _id: group.post_id,
              id: group.post_id,
              content: excerpt(group.post_content),
              mediaURL: group.post_media_url,
            }
          : null,
      comment:
        group.comment_id && group.comment_text !== null
          ? { _id: group.comment_id, id: group.comment_id, text: excerpt(group.comment_text) }
          : null,
      latestAt: toIso(group.latest_at),
      read: !unread,
    };
  });
}

export interface NotificationsServiceDeps {
  db: Db;
  transact: Transact;
}

export function createNotificationsService({ db, transact }: NotificationsServiceDeps) {
  return {
    consumer: notificationsConsumer,

    unreadCount: async (viewer: Viewer): Promise<UnreadCount> => ({
      unreadCount: await repo.countUnread(db, viewer.id),
    }),

    async list(viewer: Viewer, query: PageQuery): Promise<NotificationPage> {
      const after = query.cursor
        ? decodeCursor(query.cursor, ['number', 'string', 'count'] as const)
        : null;
      const rows = await repo.listGroups(db, {
        recipientId: viewer.id,
        after,
        limit: query.limit,
      });
      const { items, nextCursor } = pageOf(rows, query.limit, (row) => [
        row.latest_at,
        row.group_key,
        row.unread,
      ]);
      const actors = await repo.listGroupActors(
        db,
        viewer.id,
        items.map((row) => row.group_key),
      );
      return {
        notifications: toGroups(items, actors),
        nextCursor,
        unreadCount: await repo.countUnread(db, viewer.id),
      };
    },

    /**
     * In a member's deletion, before their rows go: the other members whose unread count will
     * drop (notifications the member caused, or about their posts and comments).
     */
    recipientsTouchedByMember: (trx: Db, userId: string) =>
      repo.recipientsTouchedByMember(trx, userId),

    /** In the transaction that changed them: tells each member their unread count. */
    async recordUnreadCounts(
      trx: Db,
      events: EventRecorder,
      userIds: readonly string[],
    ): Promise<void> {
      if (userIds.length === 0) return;
      const rows = await repo.unreadCountsAmong(trx, idListValue(trx, userIds));
      const counts = new Map(rows.map((row) => [row.recipient_id, Number(row.count)]));
      for (const userId of userIds) {
        events.record({
          type: 'notifications.changed',
          payload: { userId, unreadCount: counts.get(userId) ?? 0 },
        });
      }
    },

    /** Marks every notification read; the member's other tabs and devices hear of it. */
    markAllRead: (viewer: Viewer): Promise<UnreadCount> =>
      transact(async (trx, events) => {
        if ((await repo.markAllRead(trx, viewer.id, Date.now())) > 0) {
          events.record({
            type: 'notifications.changed',
            payload: { userId: viewer.id, unreadCount: 0 },
          });
        }
        return { unreadCount: 0 };
      }),
  };
}

export type NotificationsService = ReturnType<typeof createNotificationsService>;
