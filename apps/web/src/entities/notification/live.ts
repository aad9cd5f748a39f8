import type { LiveEventHandler, LiveEventHandlersFor } from '../../shared/live/liveEventHandlers';
import { ignoreLiveEvent } from '../../shared/live/liveEventHandlers';
import { notificationKeys } from './notificationKeys';
import { setUnreadCount } from './notifications.queries';

const onNotificationsChanged: LiveEventHandler<'notifications.changed'> = (
  { payload: { userId, unreadCount } },
  { queryClient, viewer },
) => {
  if (userId !== viewer._id) return;
  setUnreadCount(queryClient, unreadCount);
  // Something arrived: an open notifications page shows it.
  if (unreadCount > 0) void queryClient.invalidateQueries({ queryKey: notificationKeys.list });
};

/** What the events about the member's notifications change. */
export const notificationLiveHandlers = {
  'notifications.changed': onNotificationsChanged,
  // The mentioned member's notification arrives with its own 'notifications.changed'.
  'members.mentioned': ignoreLiveEvent,
} satisfies LiveEventHandlersFor<'notifications.changed' | 'members.mentioned'>;
