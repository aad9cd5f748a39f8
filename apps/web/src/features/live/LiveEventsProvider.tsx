import { useQueryClient } from '@tanstack/react-query';
import { createContext, use, useEffect, useState, type ReactNode } from 'react';
import { refreshSessionCookie } from '../../entities/session/auth.api';
import { useSession, useSessionStore } from '../../entities/session/SessionProvider';
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
import { createNewPostsStore, type NewPostsStore } from '../../shared/live/newPosts';

const NewPostsContext = createContext<NewPostsStore | null>(null);

interface LiveEventsProviderProps {
  children: ReactNode;
  /** What each event type changes (every entity declares its own). */
  handlers: LiveEventHandlers;
  /** Defaults to the browser's EventSource. */
  createSource?: EventSourceFactory;
}

/**
 * Keeps what the app shows current while a member is signed in: one event stream per session
 * (opened once the server has confirmed the session, closed when it ends), each event applied
 * to the query cache. Followed members' new posts are collected for Home's 'new posts' button.
 */
export function LiveEventsProvider({ children, handlers, createSource }: LiveEventsProviderProps) {
  const store = useSessionStore();
  const queryClient = useQueryClient();
  const { session, verified } = useSession();
  const token = session?.token ?? null;
  const [newPosts] = useState(createNewPostsStore);

  useEffect(() => {
    if (token === null || !verified) return;
    const context: LiveContext = { queryClient, store, newPosts };

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
  }, [token, verified, queryClient, store, newPosts, handlers, createSource]);

  return <NewPostsContext value={newPosts}>{children}</NewPostsContext>;
}

/** Followed members' posts published since Home loaded (see {@link LiveEventsProvider}). */
export function useNewPostsStore(): NewPostsStore {
  const newPosts = use(NewPostsContext);
  if (newPosts === null)
    throw new Error('useNewPostsStore must be used inside <LiveEventsProvider>.');
  return newPosts;
}
