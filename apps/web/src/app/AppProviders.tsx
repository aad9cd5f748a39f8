import { QueryClientProvider, type QueryClient } from '@tanstack/react-query';
import { useState, type ReactNode } from 'react';
import { SessionProvider } from '../entities/session/SessionProvider';
import type { SessionStore } from '../entities/session/session';
import { LiveEventsProvider } from '../features/live/LiveEventsProvider';
import { AppToaster } from './AppToaster';
import { createQueryClient } from './queryClient';

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
        <LiveEventsProvider>{children}</LiveEventsProvider>
        <AppToaster />
      </SessionProvider>
    </QueryClientProvider>
  );
}
