import { refreshSessionCookie } from '../../entities/session/auth.api';
import { setUnreadCount } from '../../entities/notification/notifications.queries';
import type { PostPages } from '../../entities/post/postCache';
import { parseListKey } from '../../entities/post/postKeys';
import { connectLiveEvents, type EventSourceFactory } from './liveConnection';
import {
  applyLiveEvent,
  resyncEverything,
  type LiveContext,
  type LiveEventHandlers,
} from '../../shared/live/liveEventHandlers';

interface LiveSessionOptions {
  context: LiveContext;
  token: string;
  handlers: LiveEventHandlers;
  createSource?: EventSourceFactory;
}

/**
 * Opens the member's event stream and applies each event to the query cache until the returned
 * function closes it. Loaded only once a session is confirmed: a visitor never needs it.
 */
export function startLiveSession({
  context,
  token,
  handlers,
  createSource,
}: LiveSessionOptions): () => void {
  const { queryClient, newPosts } = context;

  // A new post Home has loaded meanwhile (a refetch) is no longer new.
  const unsubscribe = queryClient.getQueryCache().subscribe((event) => {
    if (event.type !== 'updated' || event.action.type !== 'success') return;
    const key: readonly unknown[] = event.query.queryKey as readonly unknown[];
    if (parseListKey(key)?.source.kind !== 'home') return;
    const data = event.query.state.data as PostPages | undefined;
    const shown = new Set(data?.pages.flatMap((page) => page.posts.map((post) => post._id)));
    newPosts.prune((postId) => shown.has(postId));
  });

  const connection = connectLiveEvents({
    createSource,
    refreshCookie: () => refreshSessionCookie(token),
    onReady: ({ unreadCount }, { resync }) => {
      setUnreadCount(queryClient, unreadCount);
      if (resync) resyncEverything(context);
    },
    onReset: () => {
      resyncEverything(context);
    },
    onEvent: (event) => {
      applyLiveEvent(handlers, context, event);
    },
  });

  return () => {
    connection.close();
    unsubscribe();
    newPosts.clear();
  };
}
