import { QueryClientProvider, type QueryClient } from '@tanstack/react-query';
import { useState, type ReactNode } from 'react';
import { SessionProvider } from '../entities/session/SessionProvider';
import type { SessionStore } from '../entities/session/session';
import { LiveEventsProvider } from '../features/live';
import { AppToaster } from './AppToaster';
import { createQueryClient } from './queryClient';

/** The entities' live event handlers, in their own chunk with the stream that uses them. */
const loadLiveEventHandlers = () =>
  import('./liveEventHandlers').then((module) => module.liveEventHandlers);

interface AppProvidersProps {
  children: ReactNode;
  queryClient?: QueryClient;
  sessionStore?: SessionStore;
}

export function AppProviders({ children, queryClient, sessionStore }: AppProvidersProps) {
  const [client] = useState(() => queryClient ?? createQueryClient());
  return (
    <QueryClientProvider client={client}>
      <SessionProvider store={sessionStore}>
        <LiveEventsProvider loadHandlers={loadLiveEventHandlers}>{children}</LiveEventsProvider>
        <AppToaster />
      </SessionProvider>
    </QueryClientProvider>
  );
}
