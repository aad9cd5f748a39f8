import type { NotificationPage, PageQuery, UnreadCount } from '@perch/contract';
import type { Kysely } from 'kysely';
import type { Viewer } from '../../lib/viewer';
import type { Database } from '../../platform/db/schema';
import { idListValue } from '../../platform/db/dialect';
import type { EventRecorder, Transact } from '../../platform/events/transactions';
import { decodeCursor, pageOf } from '../../lib/cursor';
import { notificationPresenter } from '../../read-model/notification/presenter';
import type { HiddenMembers } from '../safety/hidden-members';
import type { PollsService } from '../polls/polls.service';
import { createNotificationsConsumer } from './notifications.handler';
import * as repo from './notifications.repository';

type Db = Kysely<Database>;

export interface NotificationsServiceDeps {
  db: Db;
  transact: Transact;
  /** Notifications from members the recipient muted, or across a block, are never shown. */
  hidden: Pick<HiddenMembers, 'hiddenFor' | 'hiddenWithin' | 'keepsFrom'>;
  /** Who voted in a poll that ended: they are told. */
  polls: Pick<PollsService, 'votersOf'>;
}

export function createNotificationsService({
  db,
  transact,
  hidden,
  polls,
}: NotificationsServiceDeps) {
  /** In the transaction that changed them: tells each member their unread count. */
  async function recordUnreadCounts(
    trx: Db,
    events: EventRecorder,
    userIds: readonly string[],
  ): Promise<void> {
    if (userIds.length === 0) return;
    await repo.settleUnreadCounts(trx);
    const rows = await repo.unreadCountsAmong(trx, idListValue(trx, userIds));
    const counts = new Map(rows.map((row) => [row.recipient_id, Number(row.count)]));
    for (const userId of userIds) {
      // Members who hide someone (few) are counted on their own, without those notifications.
      const hiddenActors = await hidden.hiddenWithin(trx, userId);
      events.record({
        type: 'notifications.changed',
        payload: {
          userId,
          unreadCount:
            hiddenActors.length > 0
              ? await repo.countUnread(trx, userId, hiddenActors)
              : (counts.get(userId) ?? 0),
        },
      });
    }
  }

  return {
    consumer: createNotificationsConsumer(hidden, polls),

    unreadCount: async (viewer: Viewer): Promise<UnreadCount> => ({
      unreadCount: await repo.countUnread(db, viewer.id, await hidden.hiddenFor(viewer.id)),
    }),

    async list(viewer: Viewer, query: PageQuery): Promise<NotificationPage> {
      const after = query.cursor
        ? decodeCursor(query.cursor, ['number', 'string', 'count'] as const)
        : null;
      const hiddenActors = await hidden.hiddenFor(viewer.id);
      const rows = await repo.listGroups(db, {
        recipientId: viewer.id,
        after,
        limit: query.limit,
        hiddenActors,
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
        hiddenActors,
      );
      return {
        notifications: notificationPresenter.packMany(items, actors),
        nextCursor,
        unreadCount: await repo.countUnread(db, viewer.id, hiddenActors),
      };
    },

    /**
     * In a member's deletion, before their rows go: the other members whose unread count will
     * drop (notifications the member caused, or about their posts and comments).
     */
    recipientsTouchedByMember: (trx: Db, userId: string) =>
      repo.recipientsTouchedByMember(trx, userId),

    /** In the transaction that changed them: tells each member their unread count. */
    recordUnreadCounts,

    /**
     * In a block's transaction: removes the notifications either member caused the other, and
     * tells whoever lost some their unread count.
     */
    async forgetBetween(trx: Db, events: EventRecorder, a: string, b: string): Promise<void> {
      await recordUnreadCounts(trx, events, await repo.deleteBetween(trx, a, b));
    },

    /**
     * Removes the member's notifications, all or one group's (the unread or the read ones);
     * answers whether any were removed. The member's other tabs and devices hear the new count.
     */
    dismiss: (
      viewer: Viewer,
      group: { groupKey: string; unread: boolean } | null = null,
    ): Promise<boolean> =>
      transact(async (trx, events) => {
        const removed = await repo.deleteForRecipient(trx, viewer.id, group);
        if (removed > 0) await recordUnreadCounts(trx, events, [viewer.id]);
        return removed > 0;
      }),

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
