import type { NotificationPage, UnreadCount } from '@perch/contract';
import { apiRequest } from '../../shared/lib/api';

/** One page of the member's notifications (grouped, newest first) and their unread count. */
export function fetchNotificationPage(
  cursor: string | null,
  token: string,
  signal?: AbortSignal,
): Promise<NotificationPage> {
  const query = cursor === null ? '' : `?${new URLSearchParams({ cursor }).toString()}`;
  return apiRequest(`/api/notifications${query}`, {
    token,
    signal,
    schema: (s) => s.notificationPageSchema,
  });
}

export function fetchUnreadCount(token: string, signal?: AbortSignal): Promise<UnreadCount> {
  return apiRequest('/api/notifications/unread', {
    token,
    signal,
    schema: (s) => s.unreadCountSchema,
  });
}

/** Marks every notification read; answers `{unreadCount: 0}`. */
export function markNotificationsRead(token: string): Promise<UnreadCount> {
  return apiRequest('/api/notifications/read', {
    method: 'POST',
    token,
    schema: (s) => s.unreadCountSchema,
  });
}
