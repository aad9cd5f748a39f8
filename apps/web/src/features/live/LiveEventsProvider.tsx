import { useQueryClient } from '@tanstack/react-query';
import { createContext, use, useEffect, useState, type ReactNode } from 'react';
import { useSession, useSessionStore } from '../../entities/session/SessionProvider';
import type { EventSourceFactory } from './liveConnection';
import type { LiveContext, LiveEventHandlers } from '../../shared/live/liveEventHandlers';
import { createNewPostsStore, type NewPostsStore } from '../../shared/live/newPosts';

const NewPostsContext = createContext<NewPostsStore | null>(null);

interface LiveEventsProviderProps {
  children: ReactNode;
  /** What each event type changes (every entity declares its own), fetched once needed. */
  loadHandlers: () => Promise<LiveEventHandlers>;
  /** Defaults to the browser's EventSource. */
  createSource?: EventSourceFactory;
}

/**
 * Keeps what the app shows current while a member is signed in: one event stream per session
 * (opened once the server has confirmed the session, closed when it ends), each event applied
 * to the query cache. Followed members' new posts are collected for Home's 'new posts' button.
 * The stream's code and the handlers load with the first confirmed session, not before.
 */
export function LiveEventsProvider({
  children,
  loadHandlers,
  createSource,
}: LiveEventsProviderProps) {
  const store = useSessionStore();
  const queryClient = useQueryClient();
  const { session, verified } = useSession();
  const token = session?.token ?? null;
  const [newPosts] = useState(createNewPostsStore);

  useEffect(() => {
    if (token === null || !verified) return;
    const context: LiveContext = { queryClient, store, newPosts };
    let stop: (() => void) | null = null;
    let ended = false;
    // Without them (offline before the app was kept) the screens still work, only not live.
    Promise.all([import('./liveSession'), loadHandlers()]).then(
      ([{ startLiveSession }, handlers]) => {
        if (!ended) stop = startLiveSession({ context, token, handlers, createSource });
      },
      () => undefined,
    );
    return () => {
      ended = true;
      stop?.();
    };
  }, [token, verified, queryClient, store, newPosts, loadHandlers, createSource]);

  return <NewPostsContext value={newPosts}>{children}</NewPostsContext>;
}

/** Followed members' posts published since Home loaded (see {@link LiveEventsProvider}). */
export function useNewPostsStore(): NewPostsStore {
  const newPosts = use(NewPostsContext);
  if (newPosts === null)
    throw new Error('useNewPostsStore must be used inside <LiveEventsProvider>.');
  return newPosts;
}
