import { useQueryClient } from '@tanstack/react-query';
import {
  createContext,
  use,
  useEffect,
  useState,
  useSyncExternalStore,
  type ReactNode,
} from 'react';
import { isApiError, onUnauthorized } from '../../shared/lib/api';
import { fetchCurrentUser, refreshSessionCookie } from './auth.api';
import {
  createSessionStore,
  type Session,
  type SessionSnapshot,
  type SessionStore,
} from './session';

const SessionStoreContext = createContext<SessionStore | null>(null);

interface SessionProviderProps {
  children: ReactNode;
  /** Defaults to a store backed by `window.localStorage`. */
  store?: SessionStore;
}

/**
 * Restores the session saved in local storage, checks it with the server once (a token the
 * server rejects, or whose member no longer exists, is forgotten; an accepted one gets its
 * session cookie) and forgets the session whenever an authenticated call is answered with 401.
 */
export function SessionProvider({ children, store: providedStore }: SessionProviderProps) {
  const [store] = useState(() => providedStore ?? createSessionStore());
  const queryClient = useQueryClient();
  const { session, verified } = useSyncExternalStore(store.subscribe, store.getSnapshot);
  const token = session?.token ?? null;

  useEffect(
    () =>
      onUnauthorized((rejectedToken) => {
        if (store.getSnapshot().session?.token !== rejectedToken) return;
        store.clear();
        queryClient.clear();
      }),
    [store, queryClient],
  );

  // Whatever ended the session (this tab or another one), nothing cached for it may outlive it.
  useEffect(() => {
    if (token === null) queryClient.clear();
  }, [token, queryClient]);

  useEffect(() => {
    if (token === null || verified) return;
    const controller = new AbortController();
    fetchCurrentUser(token, controller.signal).then(
      async ({ user }) => {
        // A session stored before the session cookie existed gets it now, before anything that
        // needs it (the live event stream) starts; a failure only means no live updates.
        await refreshSessionCookie(token, controller.signal).catch(() => undefined);
        if (controller.signal.aborted) return;
        store.confirm(token, user);
      },
      (error: unknown) => {
        if (controller.signal.aborted) return;
        if (isApiError(error) && (error.status === 401 || error.status === 404)) {
          store.clear();
          queryClient.clear();
        }
        // Any other failure (offline, server restarting) keeps the session; the next
        // authenticated call settles it.
      },
    );
    return () => {
      controller.abort();
    };
  }, [store, queryClient, token, verified]);

  return <SessionStoreContext value={store}>{children}</SessionStoreContext>;
}

export function useSessionStore(): SessionStore {
  const store = use(SessionStoreContext);
  if (store === null) throw new Error('useSessionStore must be used inside <SessionProvider>.');
  return store;
}

export function useSession(): SessionSnapshot {
  const store = useSessionStore();
  return useSyncExternalStore(store.subscribe, store.getSnapshot);
}

/** The signed-in session, for components rendered only behind the auth guard. */
export function useRequiredSession(): Session {
  const { session } = useSession();
  if (session === null) throw new Error('This view needs a signed-in session.');
  return session;
}
