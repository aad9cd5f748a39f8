import type { NotificationPage, UnreadCount } from '@perch/contract';
import {
  useInfiniteQuery,
  useMutation,
  useQuery,
  useQueryClient,
  type InfiniteData,
  type QueryClient,
} from '@tanstack/react-query';
import { useRequiredSession } from '../session/SessionProvider';
import {
  fetchNotificationPage,
  fetchUnreadCount,
  markNotificationsRead,
} from './notifications.api';
import { notificationKeys } from './notificationKeys';

export type NotificationPages = InfiniteData<NotificationPage>;

/** Shows `unreadCount` wherever the badge is (the live stream and every answer call this). */
export function setUnreadCount(queryClient: QueryClient, unreadCount: number): void {
  queryClient.setQueryData<UnreadCount>(notificationKeys.unread, { unreadCount });
}

/** How many notifications the member has not read; kept current by the live stream. */
export function useUnreadCount(): number {
  const { token } = useRequiredSession();
  const query = useQuery({
    queryKey: notificationKeys.unread,
    queryFn: ({ signal }) => fetchUnreadCount(token, signal),
  });
  return query.data?.unreadCount ?? 0;
}

/** The member's notification groups, newest first, loaded page by page. */
export function useNotifications() {
  const { token } = useRequiredSession();
  const queryClient = useQueryClient();
  return useInfiniteQuery({
    queryKey: notificationKeys.list,
    queryFn: async ({ pageParam, signal }) => {
      const page = await fetchNotificationPage(pageParam, token, signal);
      setUnreadCount(queryClient, page.unreadCount);
      return page;
    },
    initialPageParam: null as string | null,
    getNextPageParam: (lastPage) => lastPage.nextCursor,
    staleTime: 0,
  });
}

/** Marks every notification read; the badge drops to 0 at once. */
export function useMarkNotificationsRead() {
  const { token } = useRequiredSession();
  const queryClient = useQueryClient();
  return useMutation({
    mutationKey: ['notifications', 'read'],
    mutationFn: () => markNotificationsRead(token),
    // The answer is always 0, as set here; not applying it again keeps a notification that
    // arrived meanwhile (reported by the live stream) counted.
    onMutate: () => {
      setUnreadCount(queryClient, 0);
    },
    onError: () => {
      void queryClient.invalidateQueries({ queryKey: notificationKeys.unread });
    },
  });
}
